import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { loadOpenClawPlugins } from '../../src/plugins/load-openclaw-plugins.js';
import { collectingLogger, textOf } from './plugin-test-helpers.js';

// These three load on Node 20 with mcptools' own plugin SDK; none needs the network to
// register. Each test keeps their files in a scratch HOME and state directory.
const home = mkdtempSync(join(tmpdir(), 'mcptools-plugin-home-'));
const stateDir = join(home, 'state');
const workspaceDir = join(home, 'workspace');
const saved = { HOME: process.env.HOME, MEM0_TELEMETRY: process.env.MEM0_TELEMETRY };

beforeAll(() => {
  process.env.HOME = home;
  // mem0 reports usage to its analytics service unless told not to.
  process.env.MEM0_TELEMETRY = 'false';
});

afterAll(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  rmSync(home, { recursive: true, force: true });
});

const context = { agentId: 'main', sessionKey: 'agent:main:main', workspaceDir };

describe('@mem0/openclaw-mem0@1.0.16 against a stand-in mem0 API on 127.0.0.1', () => {
  let server: Server;
  const seen: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify(
          request.url?.startsWith('/v1/ping')
            ? { status: 'ok', orgId: 'org-1', projectId: 'project-1' }
            : { results: [], count: 0, next: null },
        ),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('registers its eight memory tools and answers memory_list from the stand-in', {
    timeout: 120_000,
  }, async () => {
    const logger = collectingLogger();
    const registry = new ToolRegistry();
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { plugins } = await loadOpenClawPlugins(
      [
        {
          spec: '@mem0/openclaw-mem0',
          config: { mode: 'platform', apiKey: 'm0-test', baseUrl, userId: 'u1' },
        },
      ],
      registry,
      { logger, stateDir },
    );
    expect(plugins[0]).toMatchObject({ id: 'openclaw-mem0', status: 'loaded' });
    expect([...plugins[0]!.tools].sort()).toEqual([
      'memory_add',
      'memory_delete',
      'memory_event_list',
      'memory_event_status',
      'memory_get',
      'memory_list',
      'memory_search',
      'memory_update',
    ]);
    const tools = await registry.resolveAll(context);
    const list = tools.find((tool) => tool.name === 'memory_list')!;
    const result = await list.execute('c1', {});
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).not.toMatch(/failed/i);
    expect(seen).toContain('GET /v1/ping/');
    expect(seen.some((line) => /memories/.test(line))).toBe(true);
    expect(logger.lines.filter((line) => line.startsWith('error'))).toEqual([]);
  });
});

describe('@calltelemetry/openclaw-linear@0.9.29 (engines says Node 22.16; loads on 20)', () => {
  it('registers its 15 tools; without a Linear token its calls answer with clean errors', {
    timeout: 120_000,
  }, async () => {
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins(['@calltelemetry/openclaw-linear'], registry, {
      logger: {},
      stateDir,
    });
    expect(plugins[0]).toMatchObject({ id: 'openclaw-linear', status: 'loaded' });
    expect(plugins[0]!.tools).toHaveLength(15);
    const tools = new Map((await registry.resolveAll(context)).map((tool) => [tool.name, tool]));
    const issues = await tools.get('linear_issues')!.execute('c1', {});
    expect(JSON.parse(textOf(issues))).toEqual({
      error: 'No Linear access token configured. Run: openclaw openclaw-linear auth',
    });
    const history = await tools.get('dispatch_history')!.execute('c2', {});
    expect(JSON.parse(textOf(history))).toEqual({
      message: 'No dispatch history found matching the criteria.',
      results: [],
    });
  });
});

describe('@laurentenhoor/devclaw@1.6.10', () => {
  it('registers its 23 tools; health answers, and a gateway-only runtime call fails cleanly', {
    timeout: 180_000,
  }, async () => {
    const logger = collectingLogger();
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins(['@laurentenhoor/devclaw'], registry, { logger, stateDir });
    expect(plugins[0]).toMatchObject({ id: 'devclaw', status: 'loaded' });
    expect(plugins[0]!.tools).toHaveLength(23);
    const tools = new Map((await registry.resolveAll(context)).map((tool) => [tool.name, tool]));
    const health = await tools.get('health')!.execute('c1', {});
    expect(JSON.parse(textOf(health))).toMatchObject({ success: true, projectsScanned: 0, issues: [] });
    // It used to die on "rc is not a function": runtime.system.runCommandWithTimeout now fails by name.
    const models = await tools.get('autoconfigure_models')!.execute('c2', {});
    expect(textOf(models)).toContain(
      'not available outside the OpenClaw gateway: runtime.system.runCommandWithTimeout()',
    );
  });
});
