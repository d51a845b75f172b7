import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { loadOpenClawPlugins } from '../../src/plugins/load-openclaw-plugins.js';
import { TOOL_NAME_PATTERN } from '../../src/registry/tool-name.js';
import { collectingLogger, textOf } from './plugin-test-helpers.js';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

async function startStandIn(port: number, handler: Handler): Promise<Server> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => handler(request, body, response));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}

async function stop(server: Server | undefined): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

const home = mkdtempSync(join(tmpdir(), 'mcptools-plugin-home-'));
const realHome = process.env.HOME;

beforeAll(() => {
  // oh-my-openclaw creates ~/.openclaw/workspace/.omoc-state at register: keep it out of the real home.
  process.env.HOME = home;
});

afterAll(() => {
  process.env.HOME = realHome;
  rmSync(home, { recursive: true, force: true });
});

describe('@happycastle/oh-my-openclaw@0.21.3', () => {
  it('registers with our api without a single failed registration, its tools optional', async () => {
    const logger = collectingLogger();
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins(['@happycastle/oh-my-openclaw'], registry, { logger });
    const plugin = plugins[0]!;
    expect(plugin).toMatchObject({
      id: 'oh-my-openclaw',
      name: 'Oh-My-OpenClaw',
      version: '0.21.3',
      status: 'loaded',
    });
    expect(plugin.tools.sort()).toEqual([
      'omo_delegate',
      'omoc_checkpoint',
      'omoc_delegate',
      'omoc_look_at',
      'omoc_todo_create',
      'omoc_todo_list',
      'omoc_todo_update',
      'omoc_web_search',
    ]);
    expect(plugin.optionalTools.sort()).toEqual(plugin.tools);
    // Its one tool hook runs in the pipeline; its other nine `api.on` hooks are no-ops.
    expect(plugin.hooks).toEqual(['before_tool_call']);
    expect(plugin.ignored).toEqual({
      registerHook: 8,
      on: 9,
      registerCommand: 7,
      registerService: 2,
      registerCli: 1,
      registerGatewayMethod: 1,
    });
    expect(logger.lines).toContain(
      'info [plugin:oh-my-openclaw] [oh-my-openclaw] Plugin initialization complete',
    );
    expect(logger.lines.filter((line) => line.startsWith('error'))).toEqual([]);
    // Every tool is optional: nothing resolves until something allows them.
    expect(await registry.resolveAll()).toEqual([]);
  });

  it('runs its todo tools offline once allowed: create, list, update', async () => {
    const registry = new ToolRegistry();
    await loadOpenClawPlugins([{ spec: '@happycastle/oh-my-openclaw', allow: ['omoc_todo_*'] }], registry, {
      logger: {},
    });
    const tools = new Map(
      (await registry.resolveAll({ sessionKey: 'test-session' })).map((tool) => [tool.name, tool]),
    );
    expect([...tools.keys()].sort()).toEqual(['omoc_todo_create', 'omoc_todo_list', 'omoc_todo_update']);
    const create = tools.get('omoc_todo_create')!;
    expect(create.parameters).toMatchObject({ type: 'object', required: ['content'] });
    expect(Object.getOwnPropertySymbols(create.parameters)).toEqual([]);
    const created = JSON.parse(
      textOf(await create.execute('c1', { content: 'Write the plugin loader', priority: 'high' })),
    ) as { todo: { id: string; content: string; status: string; priority: string } };
    expect(created.todo).toMatchObject({
      content: 'Write the plugin loader',
      status: 'pending',
      priority: 'high',
    });
    await create.execute('c2', { content: 'Test it' });
    const listed = JSON.parse(textOf(await tools.get('omoc_todo_list')!.execute('c3', {}))) as {
      todos: Array<{ id: string; content: string }>;
      count: number;
    };
    expect(listed.todos.map((todo) => todo.content)).toEqual(
      expect.arrayContaining(['Write the plugin loader', 'Test it']),
    );
    const updated = JSON.parse(
      textOf(
        await tools.get('omoc_todo_update')!.execute('c4', { id: created.todo.id, status: 'completed' }),
      ),
    ) as { todo: { status: string }; notice: string };
    expect(updated.todo.status).toBe('completed');
    expect(updated.notice).toContain('completed: Write the plugin loader');
    const pending = JSON.parse(
      textOf(await tools.get('omoc_todo_list')!.execute('c5', { status: 'pending' })),
    ) as {
      todos: Array<{ content: string }>;
    };
    expect(pending.todos.map((todo) => todo.content)).not.toContain('Write the plugin loader');
    const refused = await create.execute('c6', { content: '   ' });
    expect(textOf(refused)).toBe('Error: content is required');
  });
});

describe('@ollama/openclaw-web-search@0.2.2 (TypeScript entry)', () => {
  // The plugin's base URL is a constant in its index.ts (http://127.0.0.1:11434, Ollama's
  // default); it has no config for it, so the stand-in listens on that loopback port.
  const requests: Array<{ url: string; body: unknown }> = [];
  let server: Server | undefined;
  let unavailable: string | undefined;

  beforeAll(async () => {
    try {
      server = await startStandIn(11434, (request, body, response) => {
        requests.push({ url: request.url ?? '', body: JSON.parse(body || '{}') });
        response.setHeader('content-type', 'application/json');
        if (request.url === '/api/experimental/web_search') {
          const { query } = JSON.parse(body) as { query: string };
          if (query === 'unauthorized') {
            response.statusCode = 401;
            response.end('{}');
            return;
          }
          response.end(
            JSON.stringify({
              results: [
                { title: `About ${query}`, url: 'https://example.test/a', content: 'Stand-in result' },
              ],
            }),
          );
          return;
        }
        response.end(
          JSON.stringify({ title: 'Page', content: 'Body text', links: ['https://example.test/b'] }),
        );
      });
    } catch (error) {
      unavailable = `port 11434 is in use on this machine (${(error as Error).message})`;
    }
  });

  afterAll(() => stop(server));

  it('loads the .ts entry and calls its tools against a stand-in server on 127.0.0.1', async (context) => {
    if (unavailable) context.skip(unavailable);
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins(['@ollama/openclaw-web-search'], registry);
    expect(plugins[0]).toMatchObject({
      id: 'openclaw-web-search',
      name: 'Ollama Web Search',
      status: 'loaded',
    });
    expect(plugins[0]?.source).toMatch(/openclaw-web-search\/index\.ts$/);
    const tools = new Map((await registry.resolveAll()).map((tool) => [tool.name, tool]));
    expect([...tools.keys()]).toEqual(['ollama_web_search', 'ollama_web_fetch']);
    const search = await tools.get('ollama_web_search')!.execute('s1', { query: 'mcp tools' });
    expect(search.isError).toBeUndefined();
    expect(textOf(search)).toBe('1. About mcp tools\n   https://example.test/a\n   Stand-in result');
    expect(search.details).toEqual({});
    expect(requests[0]).toEqual({
      url: '/api/experimental/web_search',
      body: { query: 'mcp tools', max_results: 5 },
    });
    const fetched = await tools.get('ollama_web_fetch')!.execute('f1', { url: 'https://example.test/page' });
    expect(textOf(fetched)).toBe('# Page\n\nBody text\n\n\n## Links\n- https://example.test/b');
    const failed = await tools.get('ollama_web_search')!.execute('s2', { query: 'unauthorized' });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(
      /^Tool openclaw-web-search\/ollama_web_search failed: Web search authentication failed/,
    );
  });
});

describe('@askjo/camofox-browser@1.17.0 (tool factories)', () => {
  let server: Server | undefined;
  let baseUrl = '';
  const seen: string[] = [];

  beforeAll(async () => {
    // A stand-in for camofox's REST server: nothing here starts a browser.
    server = await startStandIn(0, (request, _body, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify([{ tabId: 't1', url: 'https://example.test/' }]));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => stop(server));

  it('registers its 11 tool factories with legal names and object schemas, autoStart off', async () => {
    const logger = collectingLogger();
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins(
      [
        {
          spec: '@askjo/camofox-browser',
          config: { autoStart: false, url: baseUrl, crashReportEnabled: false },
        },
      ],
      registry,
      { logger },
    );
    const plugin = plugins[0]!;
    expect(plugin).toMatchObject({ id: 'camofox-browser', version: '1.17.0', status: 'loaded' });
    expect(plugin.tools).toHaveLength(11);
    expect(plugin.ignored).toMatchObject({ registerCommand: 1, registerGatewayMethod: 2, registerCli: 1 });
    const catalog = registry.list();
    expect(
      catalog.every((row) => row.factory && row.source === 'plugin' && row.server === 'camofox-browser'),
    ).toBe(true);
    const tools = await registry.resolveAll({
      agentId: 'agent-1',
      sessionKey: 'session-1',
      workspaceDir: home,
    });
    expect(tools.map((tool) => tool.name).sort()).toEqual([...plugin.tools].sort());
    for (const tool of tools) {
      expect(tool.name).toMatch(TOOL_NAME_PATTERN);
      expect(tool.parameters.type).toBe('object');
      expect(tool.description.length).toBeGreaterThan(10);
    }
    expect(tools.find((tool) => tool.name === 'camofox_create_tab')?.parameters.required).toEqual(['url']);
    // Nothing was launched and nothing contacted the REST server while loading and listing.
    expect(seen).toEqual([]);
    expect(logger.lines.filter((line) => /auto-start|server ready/i.test(line))).toEqual([]);
  });

  it('calls camofox_list_tabs against the stand-in REST server with the factory context agentId', async () => {
    const registry = new ToolRegistry();
    await loadOpenClawPlugins(
      [{ spec: '@askjo/camofox-browser', config: { autoStart: false, url: baseUrl } }],
      registry,
      { logger: {} },
    );
    const tools = await registry.resolveAll({ agentId: 'agent-42', sessionKey: 'session-1' });
    const listTabs = tools.find((tool) => tool.name === 'camofox_list_tabs')!;
    const result = await listTabs.execute('c1', {});
    expect(JSON.parse(textOf(result))).toEqual([{ tabId: 't1', url: 'https://example.test/' }]);
    expect(seen).toContain('GET /tabs?userId=agent-42');
  });
});
