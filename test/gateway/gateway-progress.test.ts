import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBin } from '../cli/cli-process.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { SERVE_BOX_OFF } from '../helpers/serve-box-off.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, eras, type RunningGateway, startGateway } from './gateway-test-helpers.js';

/*
 * A stdio upstream's last progress notification often arrives in the same read as its result.
 * The hostile fixture's `progress_burst` writes its five notifications and the result in one
 * write, so every call is that case: all five reach the caller, over HTTP and over
 * `serve --stdio`, in both eras, a hundred calls in a row.
 *
 * Over stdio the check is what the gateway writes (every notification, in its own write
 * before the result): an SDK client that reads a notification and the response after it in
 * one chunk drops the notification itself. With a 2025-era client the gateway pings it after
 * the notifications and writes the response only once the ping is answered, so the client has
 * handled them however late it reads (shown on the raw wire: the response never comes before
 * the ping's answer); a 2026-07-28 client over stdio cannot be pinged, and gets the response
 * 10 ms after, which only makes the loss unlikely on a machine too loaded to read in time.
 */

const CALLS = 100;
const STEPS = [1, 2, 3, 4, 5];

let running: RunningGateway;
let dir: string;
let config: string;

beforeAll(async () => {
  running = await startGateway({ servers: { burst: stdioFixture('hostile') } });
  dir = mkdtempSync(join(tmpdir(), 'mcptools-progress-'));
  config = join(dir, 'mcptools.json');
  writeFileSync(config, JSON.stringify({ servers: { burst: fixtureCommand('hostile') } }));
});

afterAll(async () => {
  await running?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The progress values each of {@link CALLS} calls of `burst__progress_burst` heard, in order. */
async function progressOfCalls(client: Client): Promise<number[][]> {
  const heard: number[][] = [];
  for (let call = 0; call < CALLS; call++) {
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'burst__progress_burst', arguments: { count: STEPS.length } },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'sent 5 progress notifications' }]);
    heard.push(progress);
  }
  return heard;
}

/**
 * What `transport` delivered during each of {@link CALLS} calls, in order: `P<progress>` for
 * a progress notification, `R` for the call's response (recorded before the client handles it).
 */
async function wireOfCalls(client: Client, transport: StdioClientTransport): Promise<string[][]> {
  let current: string[] = [];
  const deliver = transport.onmessage!;
  transport.onmessage = (message) => {
    if ('method' in message && message.method === 'notifications/progress')
      current.push(`P${(message.params as { progress: number }).progress}`);
    else if ('id' in message && 'result' in message) current.push('R');
    deliver(message);
  };
  const calls: string[][] = [];
  for (let call = 0; call < CALLS; call++) {
    current = [];
    await client.callTool(
      { name: 'burst__progress_burst', arguments: { count: STEPS.length } },
      { onprogress: () => {} },
    );
    calls.push(current);
  }
  return calls;
}

/** A call that asks for no progress is answered as before, and the upstream is told of no token. */
async function expectPlainCall(client: Client): Promise<void> {
  const result = await client.callTool({ name: 'burst__progress_burst', arguments: { count: 5 } });
  expect(result.content).toEqual([{ type: 'text', text: 'sent 0 progress notifications' }]);
}

describe('progress written together with the result by a stdio upstream', { timeout: 120_000 }, () => {
  it.each(eras)('reaches a $label over HTTP, the last notification included', async ({ era }) => {
    const client = await connectClient(running.url, era);
    try {
      await expectPlainCall(client);
      expect(await progressOfCalls(client)).toEqual(Array.from({ length: CALLS }, () => STEPS));
    } finally {
      await client.close();
    }
  });

  it.each(eras)(
    'is written to a $label over mcptools serve --stdio (built binary), before the result',
    async ({ era }) => {
      const client = new Client(
        { name: 'stdio-progress', version: '1.0.0' },
        era === 'modern' ? { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 30_000 } } } : {},
      );
      try {
        const transport = new StdioClientTransport({
          command: process.execPath,
          args: [cliBin, 'serve', '--stdio', '--config', config],
          env: SERVE_BOX_OFF,
          stderr: 'pipe',
        });
        await client.connect(transport);
        expect(client.getProtocolEra()).toBe(era);
        await expectPlainCall(client);
        const wire = ['P1', 'P2', 'P3', 'P4', 'P5', 'R'];
        expect(await wireOfCalls(client, transport)).toEqual(Array.from({ length: CALLS }, () => wire));
      } finally {
        await client.close();
      }
    },
  );
});

describe('serve --stdio flushes progress with a ping before the result (2025-era client)', {
  timeout: 120_000,
}, () => {
  it('writes the result only after the client answered a ping sent after the notifications; no ping without progress', async () => {
    const child = spawn(process.execPath, [cliBin, 'serve', '--stdio', '--config', config], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines = createInterface({ input: child.stdout! });
    const pending: ((line: string) => void)[] = [];
    const buffered: string[] = [];
    lines.on('line', (line) => {
      const waiting = pending.shift();
      if (waiting) waiting(line);
      else buffered.push(line);
    });
    const next = () =>
      new Promise<Record<string, unknown>>((resolve) => {
        const take = (line: string) => resolve(JSON.parse(line) as Record<string, unknown>);
        const line = buffered.shift();
        if (line === undefined) pending.push(take);
        else take(line);
      });
    const send = (message: object) => child.stdin!.write(`${JSON.stringify(message)}\n`);
    /** What the gateway writes until the answer to `id`, answering its pings only when `answer` says so. */
    const wireUntil = async (id: number) => {
      const wire: string[] = [];
      for (;;) {
        const message = await next();
        if (message.method === 'notifications/progress')
          wire.push(`P${(message.params as { progress: number }).progress}`);
        else if (message.method === 'ping') {
          // Nothing after the ping can be the response: it waits for this answer.
          wire.push('ping');
          send({ jsonrpc: '2.0', id: message.id, result: {} });
          wire.push('answered');
        } else if (message.id === id) {
          wire.push('R');
          return wire;
        }
      }
    };
    try {
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      });
      expect((await next()).id).toBe(1);
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const call = (id: number, progressToken?: string) =>
        send({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: {
            name: 'burst__progress_burst',
            arguments: { count: 5 },
            ...(progressToken === undefined ? {} : { _meta: { progressToken } }),
          },
        });
      // The control: without progress, no ping.
      call(2);
      expect(await wireUntil(2)).toEqual(['R']);
      for (let id = 3; id < 13; id++) {
        call(id, `t${id}`);
        expect(await wireUntil(id)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'ping', 'answered', 'R']);
      }
    } finally {
      child.stdin!.end();
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
