import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningCli, startCli } from '../cli/cli-process.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { connectClient, eras, toolNames, watchToolChanges } from './gateway-test-helpers.js';

/*
 * `serve --http` answers while its first servers connect. `slow` sleeps 12 s before it reads
 * its stdin (longer than the 8 s of the report, so that on a loaded machine it is still asleep
 * after `echo` connected): `initialize` is answered before the first connect round ends, a
 * list waits `--list-wait` and answers with `echo` alone, a call of `echo`'s tool is answered at
 * once, a call of `slow`'s tool made then
 * waits for `slow` and is answered by it, `list_changed` announces `slow`'s tools, and
 * `/readyz` says not ready until the round is over. Each step is ordered against the CLI's own
 * lines: "server slow: connected" and "listening on" (the round is over) come after.
 */

let dir: string;
let config: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-connecting-'));
  config = join(dir, 'mcptools.json');
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        slow: { ...fixtureCommand('echo', ['--start-delay-ms', '12000']), connectTimeoutMs: 60_000 },
        echo: fixtureCommand('echo'),
      },
    }),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readyz = async (url: string) => (await fetch(new URL('/readyz', url))).status;

describe('serve --http while its first servers connect', { timeout: 120_000 }, () => {
  it.each(eras)(
    '$label: initialize at once, lists with what is up, the slow tools announced',
    async ({ era }) => {
      const cli: RunningCli = startCli(
        ['serve', '--http', '127.0.0.1:0', '--list-wait', '500', '--config', config],
        dir,
      );
      const clients: Client[] = [];
      try {
        await cli.waitForStderr(/answering on (http:\/\/\S+) while/);
        const url = /answering on (http:\/\/\S+) while/.exec(cli.stderr())![1]!;
        // Not ready while the round runs: a balancer keeps traffic away, a host may still connect.
        expect(await readyz(url)).toBe(503);
        const client = await connectClient(url, era);
        clients.push(client);
        // The handshake was answered before the round ended.
        expect(cli.stderr()).not.toMatch(/server slow: connected|listening on/);
        const changes = await watchToolChanges(client, era);

        await cli.waitForStderr(/server echo: connected/);
        // A list waits --list-wait, then answers with the servers that are up.
        const early = await toolNames(client);
        expect(early).toContain('echo__echo');
        expect(early).not.toContain('slow__echo');
        // A call of a tool served already is answered at once, while slow still connects.
        const quick = await client.callTool({ name: 'echo__echo', arguments: { text: 'now' } });
        expect(quick.content).toEqual([{ type: 'text', text: 'now' }]);
        expect(cli.stderr()).not.toMatch(/server slow: connected/);
        // A call of the slow server's tool waits for it instead of "unknown tool".
        const call = client.callTool({ name: 'slow__echo', arguments: { text: 'waited' } });

        await cli.waitForStderr(/listening on http/);
        expect(await call).toEqual(expect.objectContaining({ content: [{ type: 'text', text: 'waited' }] }));
        await expect
          .poll(changes, { timeout: 30_000, message: 'tools/list_changed after slow connected' })
          .toBeGreaterThan(0);
        expect(await toolNames(client)).toEqual(expect.arrayContaining(['echo__echo', 'slow__echo']));
        // Ready once the round is over.
        expect(await readyz(url)).toBe(200);
      } finally {
        for (const client of clients) await client.close().catch(() => {});
        cli.child.kill('SIGTERM');
        await cli.exited;
      }
    },
  );
});
