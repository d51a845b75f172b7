import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { childPids, cliBin, startCli, survivors, waitForChildren } from '../cli/cli-process.js';
import { fixtureCommand, tsxCommand } from '../fixtures/spawn-http.js';
import { connectClient, eras } from '../gateway/gateway-test-helpers.js';
import { SERVE_BOX_OFF } from '../helpers/serve-box-off.js';

// SIGINT and SIGTERM on every CLI command that connects servers, and on `serve --http` and
// `serve --stdio` with calls in flight: every child process is gone afterwards (checked by
// PID, including one that ignores SIGTERM and stdin EOF), the exit code says which signal,
// and the gateway answers its calls in flight with an error before it exits.
// (`servers` under SIGINT and a `call` under both signals: test/cli/cli-signals.test.ts.)

const stubbornEcho = fileURLToPath(new URL('../cli/fixtures/stubborn-echo.ts', import.meta.url));
const SIGNALS = [
  { signal: 'SIGINT' as const, code: 130 },
  { signal: 'SIGTERM' as const, code: 143 },
];

let dir: string;
let connecting: string;
let serving: string;
let servingPlain: string;
let slowStart: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-signals-'));
  connecting = join(dir, 'connecting.json');
  // `stuck` never answers and ignores SIGTERM and stdin EOF: the command is still connecting.
  writeFileSync(
    connecting,
    JSON.stringify({
      servers: {
        stuck: { ...fixtureCommand('hang', ['--stubborn']), connectTimeoutMs: 120_000 },
        quick: { ...fixtureCommand('echo'), protocol: '2025' },
      },
    }),
  );
  serving = join(dir, 'serving.json');
  writeFileSync(
    serving,
    JSON.stringify({
      servers: {
        echo: { ...fixtureCommand('echo'), protocol: '2025' },
        stubborn: {
          ...tsxCommand(stubbornEcho),
        },
      },
    }),
  );
});

beforeAll(() => {
  // For 2026-07-28 clients over stdio: the SDK probes the era on a sibling `serve` process and
  // SIGKILLs it one second after SIGTERM, before a stubborn upstream of its could be ended (the
  // gateway's stdio client waits 2 s + 2 s before SIGKILL), so these upstreams end on stdin EOF.
  servingPlain = join(dir, 'serving-plain.json');
  writeFileSync(
    servingPlain,
    JSON.stringify({
      servers: { echo: { ...fixtureCommand('echo'), protocol: '2025' }, other: fixtureCommand('echo') },
    }),
  );
  // `slow` never answers: the gateway connects for 6 s (the sibling's probe waits as long).
  slowStart = join(dir, 'slow-start.json');
  writeFileSync(
    slowStart,
    JSON.stringify({
      servers: {
        quick: { ...fixtureCommand('echo'), protocol: '2025' },
        slow: { ...fixtureCommand('hang'), connectTimeoutMs: 6_000 },
      },
    }),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COMMANDS: string[][] = [
  ['servers'],
  ['tools'],
  ['call', 'stuck__anything'],
  ['resources'],
  ['read', 'stuck', 'test://x'],
  ['prompts'],
  ['prompt', 'stuck', 'p'],
  ['doctor'],
];
const cases = SIGNALS.flatMap(({ signal, code }) =>
  COMMANDS.filter((args) => !(signal === 'SIGINT' && args[0] === 'servers')).map((args) => ({
    label: `${args.join(' ')} ← ${signal}`,
    args,
    signal,
    code,
  })),
);

describe.concurrent('every CLI command that connects servers, under SIGINT and SIGTERM', {
  timeout: 60_000,
}, () => {
  it.each(cases)(
    '$label: exits with its signal code and leaves no child process',
    async ({ args, signal, code }) => {
      const cli = startCli([...args, '--config', connecting], dir);
      await waitForChildren(cli.pid, 1);
      // Let every server the command starts get going; `stuck` keeps it connecting.
      await new Promise((resolve) => setTimeout(resolve, 800));
      const children = childPids(cli.pid);
      cli.child.kill(signal);
      const exited = await cli.exited;
      expect(exited.code, cli.stderr()).toBe(code);
      expect(await survivors(children, 3_000)).toEqual([]);
    },
  );
});

/** Starts `echo__slow` and returns how it settled: a result, or the error the client got. */
function slowCall(client: Client, name = 'echo__slow') {
  return client.callTool({ name, arguments: { ms: 30_000, steps: 300 } }).then(
    (result) => ({ result: result as { isError?: boolean; content: { text?: string }[] }, error: undefined }),
    (error: unknown) => ({ result: undefined, error: error as Error & { code?: number } }),
  );
}

/** The call got an error response from the gateway (not a dropped connection). */
function expectErrorResponse(settled: Awaited<ReturnType<typeof slowCall>>): void {
  const text = settled.error?.message ?? settled.result?.content.map((block) => block.text).join('') ?? '';
  if (settled.result) expect(settled.result.isError).toBe(true);
  expect(text).toMatch(/shutting down|cancel/i);
}

describe('mcptools serve under SIGINT and SIGTERM, with calls in flight', { timeout: 90_000 }, () => {
  it.each(SIGNALS)(
    'serve --http ← $signal: both eras get an error response, exit 0, no child left',
    async ({ signal }) => {
      const cli = startCli(['serve', '--http', '127.0.0.1:0', '--config', serving], dir);
      await cli.waitForStderr(/listening on http/);
      const url = /listening on (\S+)/.exec(cli.stderr())![1]!;
      const upstreams = await waitForChildren(cli.pid, 2);
      const clients = await Promise.all(eras.map(({ era }) => connectClient(url, era)));
      try {
        const calls = clients.map((client) => slowCall(client));
        await new Promise((resolve) => setTimeout(resolve, 800));
        cli.child.kill(signal);
        expect((await cli.exited).code).toBe(0);
        for (const settled of await Promise.all(calls)) expectErrorResponse(settled);
        expect(await survivors(upstreams, 3_000)).toEqual([]);
      } finally {
        for (const client of clients) await client.close().catch(() => {});
      }
    },
  );

  // A 2026-07-28 client over stdio has no handshake: its connect returns before the gateway
  // serves (the era probe runs on a sibling process), so a call may be written while the
  // servers still connect. Both get an error response: a call in flight while serving, and a
  // call written while connecting (`slow` keeps the gateway connecting).
  const stdioCases = SIGNALS.flatMap((entry) => [
    ...eras.map((era) => ({ ...entry, ...era, phase: 'serving' as const })),
    { ...entry, ...eras[0]!, phase: 'connecting' as const },
  ]);
  const configFor = (era: 'modern' | 'legacy', phase: 'serving' | 'connecting') =>
    phase === 'connecting' ? slowStart : era === 'modern' ? servingPlain : serving;
  const stdioCase = async ({ signal, era, phase }: (typeof stdioCases)[number]) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliBin, 'serve', '--stdio', '--config', configFor(era, phase)],
      env: SERVE_BOX_OFF,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client(
      { name: 'signals', version: '1.0.0' },
      era === 'modern' ? { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 30_000 } } } : {},
    );
    await client.connect(transport);
    const pid = transport.pid!;
    const upstreams = await waitForChildren(pid, 2);
    try {
      if (phase === 'serving') await vi.waitFor(() => expect(stderr).toMatch(/serving/), { timeout: 30_000 });
      const call = slowCall(client, phase === 'serving' ? 'echo__slow' : 'quick__slow');
      await new Promise((resolve) => setTimeout(resolve, 800));
      if (phase === 'connecting') expect(stderr).not.toMatch(/serving/);
      process.kill(pid, signal);
      expectErrorResponse(await call);
      expect(await survivors([pid, ...upstreams], 5_000)).toEqual([]);
    } finally {
      await client.close().catch(() => {});
    }
  };
  it.each(stdioCases)(
    'serve --stdio ← $signal, $label, $phase: the call gets an error response, no child left',
    stdioCase,
  );
});
