import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { killChild } from '../fixtures/spawn-http.js';
import { connectClient } from '../gateway/gateway-test-helpers.js';
import { hasBinary } from '../helpers/system-binaries.js';
import { eventually, stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import { useClusterBench } from './cluster-fixture.js';
import { freePort, type Replica, redisAvailable } from './cluster-harness.js';

/*
 * The HAProxy recipe of docs/cluster.md, run as written (only its addresses
 * replaced) with Debian's haproxy in front of two replicas: a 2025 session sticks to the replica
 * that answered `initialize`, and without the stick lines (the control) it still works, forwarded.
 */

const HAPROXY = '/usr/sbin/haproxy';
const DOC = join(import.meta.dirname, '../../docs/cluster.md');
const bench = useClusterBench();
const replicas: Replica[] = [];

/** The recipe block of the page, with its bind and server addresses made local. */
function recipe(port: number, stick: boolean, statsSocket: string): string {
  const page = readFileSync(DOC, 'utf8');
  const block = /<!-- haproxy-recipe:start -->\n```\n([\s\S]*?)```\n<!-- haproxy-recipe:end -->/.exec(
    page,
  )?.[1];
  if (block === undefined) throw new Error('docs/cluster.md lost its HAProxy recipe markers');
  let config = block
    .replace('bind 127.0.0.1:8800', `bind 127.0.0.1:${port}`)
    .replace('server a 10.0.0.5:8808', `server a ${new URL(replicas[0]!.base).host}`)
    .replace('server b 10.0.0.6:8808', `server b ${new URL(replicas[1]!.base).host}`)
    .replace('global\n', `global\n  stats socket ${statsSocket} mode 600 level admin\n`);
  if (!stick) config = config.replace(/^\s*stick .*$/gm, '');
  return config;
}

function stats(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = connect(socket);
    let output = '';
    connection.on('data', (chunk) => {
      output += chunk.toString('utf8');
    });
    connection.on('end', () => resolve(output));
    connection.on('error', reject);
    connection.write(`${command}\n`);
  });
}

async function startHaproxy(stick: boolean) {
  const port = await freePort();
  const socket = bench.file(`haproxy-${stick}.sock`);
  const file = bench.file(`haproxy-${stick}.cfg`);
  writeFileSync(file, recipe(port, stick, socket));
  const child = spawn(HAPROXY, ['-f', file, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const up = await eventually(async () => {
    try {
      return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200;
    } catch {
      return false;
    }
  }, 15_000);
  if (!up) throw new Error(`haproxy did not come up:\n${stderr}`);
  return { url: `http://127.0.0.1:${port}/mcp`, socket, close: () => killChild(child) };
}

describe.skipIf(!redisAvailable || !hasBinary('haproxy'))(
  'the documented HAProxy recipe (Debian haproxy)',
  () => {
    beforeAll(async () => {
      const config = bench.config({ echo: stdioFixture('echo') });
      replicas.push(...(await Promise.all(['a', 'b'].map((name) => bench.replica({ name, config })))));
    }, 120_000);

    for (const stick of [true, false]) {
      it(`serves a 2025 session and 2026 calls ${stick ? 'with the session stuck to its owner' : '(control: no stick lines, forwarded)'}`, async () => {
        const haproxy = await startHaproxy(stick);
        try {
          const client = new Client({ name: 'haproxy-test', version: '1.0.0' });
          const transport = new StreamableHTTPClientTransport(new URL(haproxy.url));
          await client.connect(transport);
          for (let index = 0; index < 4; index++)
            expect(
              textOf(await client.callTool({ name: 'echo__echo', arguments: { text: `n${index}` } })),
            ).toBe(`n${index}`);
          const table = await stats(haproxy.socket, 'show table mcptools');
          if (stick) expect(table).toContain(transport.sessionId!);
          else expect(table).not.toContain(transport.sessionId!);
          await client.close();
          const modern = await connectClient(haproxy.url, 'modern');
          expect(textOf(await modern.callTool({ name: 'echo__echo', arguments: { text: 'modern' } }))).toBe(
            'modern',
          );
          await modern.close();
        } finally {
          await haproxy.close();
        }
      }, 60_000);
    }
  },
);
