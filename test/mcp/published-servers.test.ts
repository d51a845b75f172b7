import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { killChild } from '../fixtures/spawn-http.js';
import { isAlive, publishedServers, stdioPackage, textOf } from './hub-test-helpers.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts server-everything in an HTTP mode on a free port; resolves once it logs that it listens. */
async function startEverything(
  mode: 'streamableHttp' | 'sse',
): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [publishedServers.everything, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`server-everything ${mode} did not start: ${text}`)),
      20_000,
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (/listening on port|running on port/i.test(text)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${text}`)));
  });
  return { port, child };
}

describe('published MCP servers', () => {
  let registry: ToolRegistry;
  let provider: McpToolHub;
  let workspace: string;
  let streamable: { port: number; child: ChildProcess };
  let sse: { port: number; child: ChildProcess };

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'mcptools-fs-'));
    await writeFile(join(workspace, 'note.txt'), 'hello from the workspace\n');
    [streamable, sse] = await Promise.all([startEverything('streamableHttp'), startEverything('sse')]);
    registry = new ToolRegistry();
    provider = await loadMcpServers(
      {
        servers: {
          everything: stdioPackage(publishedServers.everything, ['stdio']),
          everythingHttp: { type: 'streamable-http', url: `http://127.0.0.1:${streamable.port}/mcp` },
          // `http` tries Streamable HTTP first and falls back to SSE on 404/405.
          everythingSse: { type: 'http', url: `http://127.0.0.1:${sse.port}/sse` },
          fs: stdioPackage(publishedServers.filesystem, [workspace]),
          memory: stdioPackage(publishedServers.memory, [], {
            env: { MEMORY_FILE_PATH: join(workspace, 'memory.jsonl') },
          }),
        },
      },
      registry,
      { workspaceDir: workspace },
    );
  });

  afterAll(async () => {
    await provider?.close();
    await Promise.all([streamable, sse].filter(Boolean).map(({ child }) => killChild(child)));
    await rm(workspace, { recursive: true, force: true });
  });

  it('connects every server with the transport and era it speaks', () => {
    const rows = Object.fromEntries(provider.status().map((status) => [status.name, status]));
    for (const name of ['everything', 'everythingHttp', 'everythingSse', 'fs', 'memory']) {
      expect(rows[name]?.state, `${name}: ${rows[name]?.lastError?.message}`).toBe('connected');
      expect(rows[name]?.era).toBe('legacy');
    }
    expect(rows.everything?.transport).toBe('stdio');
    expect(rows.everythingHttp?.transport).toBe('streamable-http');
    expect(rows.everythingSse?.transport).toBe('sse');
    expect(rows.everything?.serverInfo?.name).toBe('mcp-servers/everything');
  });

  it('calls server-everything tools over stdio, Streamable HTTP and SSE', async () => {
    for (const server of ['everything', 'everythingHttp', 'everythingSse']) {
      const echo = await registry.get(`${server}__echo`)!.execute('1', { message: `via ${server}` });
      expect(textOf(echo)).toBe(`Echo: via ${server}`);
    }
    const sum = await registry.get('everything__get-sum')!.execute('2', { a: 2, b: 40 });
    expect(textOf(sum)).toContain('42');
    const image = await registry.get('everythingHttp__get-tiny-image')!.execute('3', {});
    expect(image.content.some((block) => block.type === 'image')).toBe(true);
  });

  it('feeds server-everything progress to onUpdate', async () => {
    const updates: unknown[] = [];
    const result = await registry
      .get('everything__trigger-long-running-operation')!
      .execute('4', { duration: 0.3, steps: 3 }, undefined, (update) => updates.push(update));
    expect(result.isError).toBeUndefined();
    expect(updates.length).toBeGreaterThanOrEqual(1);
  });

  it('marks read-only tools from their annotations', () => {
    expect(registry.get('everything__trigger-long-running-operation')?.readOnly).toBe(true);
    expect(registry.get('fs__read_text_file')?.readOnly).toBe(true);
    expect(registry.get('fs__write_file')?.readOnly).toBe(false);
    expect(registry.get('fs__read_text_file')?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('reads resources and prompts of server-everything', async () => {
    const resources = await provider.resources.list('everything');
    expect(resources.length).toBeGreaterThan(0);
    const first = resources[0]!;
    const contents = await provider.resources.read('everything', first.uri);
    expect(contents[0]?.uri).toBe(first.uri);
    const prompts = await provider.prompts.list('everything');
    expect(prompts.length).toBeGreaterThan(0);
    const missing = await provider.resources
      .read('everything', 'demo://resource/static/document/nope.md')
      .catch((error) => error);
    expect(missing.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('reads a file through server-filesystem', async () => {
    const result = await registry
      .get('fs__read_text_file')!
      .execute('5', { path: join(workspace, 'note.txt') });
    expect(textOf(result)).toContain('hello from the workspace');
    const outside = await registry.get('fs__read_text_file')!.execute('6', { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
  });

  it('stores and reads entities through server-memory', async () => {
    const created = await registry.get('memory__create_entities')!.execute('7', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
    });
    expect(created.isError).toBeUndefined();
    const graph = await registry.get('memory__read_graph')!.execute('8', {});
    expect(textOf(graph)).toContain('wrote the first program');
  });

  it('leaves no stdio child alive after close', async () => {
    const pids = provider.status().flatMap((status) => (status.pid === undefined ? [] : [status.pid]));
    expect(pids.length).toBe(3);
    await provider.close();
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
  });
});
