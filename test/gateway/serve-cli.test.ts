import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBin as bin } from '../cli/cli-process.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { SERVE_BOX_OFF } from '../helpers/serve-box-off.js';
import { waitUntil } from '../helpers/wait-until.js';
import { isAlive, textOf } from '../mcp/hub-test-helpers.js';
import { connectClient, eras } from './gateway-test-helpers.js';
import { startServeHttp } from './start-serve-http.js';

const SECRET = 'HEADER-SECRET-987';

let dir: string;
let config: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-serve-'));
  config = join(dir, 'mcptools.json');
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        echo: fixtureCommand('echo'),
        remote: {
          type: 'streamable-http',
          url: 'http://127.0.0.1:9/mcp',
          headers: { Authorization: `Bearer ${SECRET}` },
          connectTimeoutMs: 2000,
        },
      },
      gateway: { profiles: { small: { mode: 'router' } } },
    }),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((value) => value > 0);
  } catch {
    return [];
  }
}

function startHttp(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child: ChildProcess = spawn(process.execPath, [bin, 'serve', '--config', config, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let stderr = '';
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  const url = new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /listening on (\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url, exited, stderr: () => stderr, stdout: () => stdout };
}

describe('mcptools serve --help (built binary)', () => {
  it('lists every option the gateway page names for mcptools serve', () => {
    const page = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../docs/gateway.md'), 'utf8');
    const named = new Set(
      page
        .split('\n')
        .filter((line) => line.startsWith('mcptools serve '))
        .flatMap((line) => line.match(/--[a-z][a-z-]*/g) ?? []),
    );
    expect([...named]).toEqual(expect.arrayContaining(['--stdio', '--http', '--config', '--token']));
    const help = execFileSync(process.execPath, [bin, 'serve', '--help'], { encoding: 'utf8' });
    expect([...named].filter((option) => !new RegExp(`(^|[ ,])${option}\\b`, 'm').test(help))).toEqual([]);
  });
});

describe('mcptools serve --http (built binary)', () => {
  it('serves both eras, hides secrets, and on SIGTERM answers the call in flight with an error, closes upstreams and exits 0', async () => {
    const served = startHttp(['--http', '127.0.0.1:0']);
    const url = await served.url;
    const clients = await Promise.all(eras.map(({ era }) => connectClient(url, era)));
    try {
      for (const client of clients) {
        const result = await client.callTool({ name: 'echo__echo', arguments: { text: 'via cli' } });
        expect(textOf(result as never)).toBe('via cli');
      }
      const small = await connectClient(url.replace(/\/mcp$/, '/mcp/small'), 'modern');
      expect((await small.listTools()).tools.map((tool) => tool.name)).toContain('tool_index');
      expect((await small.listTools()).tools.map((tool) => tool.name)).not.toContain('echo__echo');
      await small.close();
      const page = await (await fetch(url.replace(/\/mcp$/, '/'))).text();
      const health = await (await fetch(url.replace(/\/mcp$/, '/healthz'))).text();
      // The shape the README gives /healthz; `remote` (nothing listens on port 9) makes it degraded.
      const healthBody = JSON.parse(health) as { servers: { name: string; state: string }[] };
      expect(healthBody).toMatchObject({ status: 'degraded', uptimeSeconds: expect.any(Number) });
      expect(healthBody.servers.find((server) => server.name === 'echo')).toMatchObject({
        state: 'connected',
        protocolEra: expect.stringMatching(/^(2025|2026-07-28)$/),
        era: expect.any(String),
        protocolVersion: expect.any(String),
        transport: expect.any(String),
        toolCount: expect.any(Number),
        resourceCount: expect.any(Number),
        promptCount: expect.any(Number),
        reconnectAttempts: 0,
      });
      expect(healthBody.servers.find((server) => server.name === 'remote')?.state).not.toBe('connected');
      expect(page).toContain('remote');
      for (const text of [page, health, served.stderr(), served.stdout()]) expect(text).not.toContain(SECRET);
      const upstreams = childPids(served.child.pid!);
      expect(upstreams.length).toBeGreaterThan(0);
      let progressed = 0;
      const inFlight = clients[1]!.callTool(
        { name: 'echo__slow', arguments: { ms: 20_000, steps: 200 } },
        { onprogress: () => progressed++ },
      );
      const outcome = inFlight.then(
        (result) => ({ ok: true as const, result }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      // The call is under way upstream (its progress reached the client) when the server stops.
      await waitUntil(() => progressed > 0, 'until the slow call reported progress');
      served.child.kill('SIGTERM');
      expect(await served.exited).toBe(0);
      const settled = await outcome;
      expect(settled.ok).toBe(false);
      await waitUntil(
        () => upstreams.every((pid) => !isAlive(pid)),
        'until upstreams.every((pid) => !isAlive(pid))',
        5000,
      );
    } finally {
      for (const client of clients) await client.close().catch(() => {});
      served.child.kill('SIGKILL');
    }
  });

  it('answers a POST to a page that takes no body only after its body is in, on a connection the client closes after it', async () => {
    // The client sends `Connection: close` and the first 64 KiB of a 2 MiB body, reads the
    // 404, waits, then sends the rest. A gateway that ended its answer with the body unread
    // closed the socket at once: the rest of the body hit EPIPE or a reset, and when the answer
    // was still on its way it was lost with it (CI's HTTP fuzz, one request in eight).
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, JSON.stringify({ servers: {} }));
    const served = await startServeHttp(['--config', empty]);
    const { hostname, port } = new URL(served.url);
    try {
      for (const path of ['/nowhere', '/%00', '/healthz', '/']) {
        const outcome = await postInTwoParts(hostname, Number(port), path, 2 * 1024 * 1024);
        expect(outcome).toEqual({ status: 404, error: undefined, sentAll: true });
      }
    } finally {
      await served.close();
    }
  });

  it('refuses to listen beyond loopback without a token and says how to set one', async () => {
    const env = { ...process.env };
    delete env.MCPTOOLS_TOKEN;
    const served = startHttp(['--http', '0.0.0.0:0'], env);
    served.url.catch(() => {});
    expect(await served.exited).toBe(2);
    expect(served.stderr()).toMatch(/--token.*MCPTOOLS_TOKEN/);
  });
});

describe('mcptools serve --stdio (built binary)', () => {
  it.each(eras)('serves a $label and logs only to stderr', async ({ era }) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'serve', '--stdio', '--config', config],
      env: SERVE_BOX_OFF,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const client = new Client(
      { name: 'serve-stdio-test', version: '1.0.0' },
      era === 'modern' ? { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 30_000 } } } : {},
    );
    await client.connect(transport);
    const pid = transport.pid!;
    try {
      expect(client.getProtocolEra()).toBe(era);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('echo__echo');
      const result = await client.callTool({ name: 'echo__add', arguments: { a: 1, b: 2 } });
      expect(result.structuredContent).toEqual({ sum: 3 });
      expect(stderr).not.toContain(SECRET);
    } finally {
      await client.close();
    }
    await waitUntil(() => !isAlive(pid), 'until !isAlive(pid)', 10_000);
  });
});

/**
 * POSTs `size` bytes to `path` with `Connection: close` in two parts: the headers and 64 KiB,
 * then, 300 ms after the answer's status line came, the rest. Resolves with the answer's status,
 * the socket error if one came, and whether the whole body was written before the socket closed.
 */
function postInTwoParts(
  host: string,
  port: number,
  path: string,
  size: number,
): Promise<{ status: number | undefined; error: string | undefined; sentAll: boolean }> {
  const first = 64 * 1024;
  return new Promise((resolve) => {
    const socket = connect(port, host);
    let received = '';
    let error: string | undefined;
    let sentAll = false;
    let rest = false;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (!rest && /^HTTP\/1\.1 \d{3}/.test(received)) {
        rest = true;
        setTimeout(() => {
          if (socket.destroyed) return;
          socket.write(Buffer.alloc(size - first, 'x'), (failed) => {
            sentAll = failed == null;
          });
        }, 300);
      }
    });
    socket.on('error', (failed) => {
      error = (failed as NodeJS.ErrnoException).code ?? failed.message;
    });
    socket.on('close', () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      resolve({ status: status === undefined ? undefined : Number(status), error, sentAll });
    });
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`,
    );
    socket.write(Buffer.alloc(first, 'x'));
  });
}
