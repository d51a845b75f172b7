import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Client, FetchLike } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningCli, startCli } from '../cli/cli-process.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { connectClient, eras, toolNames, watchToolChanges } from './gateway-test-helpers.js';

/*
 * `serve --http` answers while its first servers connect. `slow` does not read its stdin until
 * the test creates its start file, which the client's fetch does once the request calling
 * `slow`'s tool has been written: `initialize` is answered before the first connect round ends,
 * a list waits `--list-wait` and answers with `echo` alone, a call of `echo`'s tool is answered
 * at once, a call of `slow`'s tool made then waits for `slow` and is answered by it,
 * `list_changed` announces `slow`'s tools, and `/readyz` says not ready until the round is over.
 * Each step is ordered against the CLI's own lines: "server slow: connected" and "listening on"
 * (the round is over) come after.
 */

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-connecting-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A config whose `slow` server starts once `startFile` exists. */
function configStartingWhen(startFile: string): string {
  const config = join(dir, `${basename(startFile)}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        slow: { ...fixtureCommand('echo', ['--start-when', startFile]), connectTimeoutMs: 60_000 },
        echo: fixtureCommand('echo'),
      },
    }),
  );
  return config;
}

/**
 * A fetch that creates `startFile` once the body of the request calling `slow__echo` has been
 * taken to be sent: the body is a stream, and its end is read only after its one chunk was.
 */
function startingSlowOnItsCall(startFile: string): FetchLike {
  return (url, init) => {
    if (typeof init?.body !== 'string' || !init.body.includes('"slow__echo"')) return fetch(url, init);
    const bytes = new TextEncoder().encode(init.body);
    let given = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!given) {
          given = true;
          controller.enqueue(bytes);
          return;
        }
        controller.close();
        writeFileSync(startFile, '');
      },
    });
    return fetch(url, { ...init, body, duplex: 'half' } as RequestInit);
  };
}

const readyz = async (url: string) => (await fetch(new URL('/readyz', url))).status;

describe('serve --http while its first servers connect', { timeout: 120_000 }, () => {
  it.each(eras)(
    '$label: initialize at once, lists with what is up, the slow tools announced',
    async ({ era }) => {
      const startFile = join(dir, `start-${era}`);
      const cli: RunningCli = startCli(
        ['serve', '--http', '127.0.0.1:0', '--list-wait', '500', '--config', configStartingWhen(startFile)],
        dir,
      );
      const clients: Client[] = [];
      try {
        await cli.waitForStderr(/answering on (http:\/\/\S+) while/);
        const url = /answering on (http:\/\/\S+) while/.exec(cli.stderr())![1]!;
        // Not ready while the round runs: a balancer keeps traffic away, a host may still connect.
        expect(await readyz(url)).toBe(503);
        const client = await connectClient(url, era, { fetch: startingSlowOnItsCall(startFile) });
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
        // A call of the slow server's tool waits for it instead of "unknown tool" (slow starts
        // once this request has been written).
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
