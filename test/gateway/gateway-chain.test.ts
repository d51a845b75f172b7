import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliBin } from '../cli/cli-process.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { SERVE_BOX_OFF } from '../helpers/serve-box-off.js';
import { waitUntil } from '../helpers/wait-until.js';
import {
  alive,
  byName,
  callEcho,
  descendants,
  freePort,
  HANDFUL,
  health,
  peakDescendants,
  scratchFolder,
  startServe,
  toolNames,
} from './recursion-processes.js';

// Two gateways chained on purpose work; a chain that comes back (A → B → A) is
// refused, over HTTP, over stdio and mixed. Real processes: the built CLI and the echo fixture.
// A gateway started as another's stdio server gets only its entry's env, so the entry turns
// serve's default box off (the fixtures run from the worktree, which a box without grants hides).

const { folder } = scratchFolder('mcptools-chain-');
const echo = fixtureCommand('echo');

describe('chains of gateways', async () => {
  const [portA, portB] = [await freePort(), await freePort()];
  const urlA = `http://127.0.0.1:${portA}/mcp`;
  const urlB = `http://127.0.0.1:${portB}/mcp`;

  it('A fronts B on purpose: B’s tools are served and called through A', async () => {
    const b = folder('front-b', { 'mcptools.json': { servers: { echo } } });
    const a = folder('front-a', { 'mcptools.json': { servers: { echo, b: { type: 'http', url: urlB } } } });
    const servedB = await startServe(b, portB);
    const servedA = await startServe(a, portA);
    try {
      const rows = byName((await health(servedA.url)).servers);
      expect(rows.get('b')?.state).toBe('connected');
      expect(await toolNames(servedA.url)).toContain('b__echo__echo');
      expect(await callEcho(servedA.url, 'b__echo__echo', 'through B')).toBe('through B');
    } finally {
      await servedA.stop();
      await servedB.stop();
    }
  });

  it('A → B → A over HTTP is refused: one side skips the other, names never grow', async () => {
    const a = folder('cycle-a', { 'mcptools.json': { servers: { echo, b: { type: 'http', url: urlB } } } });
    const b = folder('cycle-b', { 'mcptools.json': { servers: { echo, a: { type: 'http', url: urlA } } } });
    const servedA = await startServe(a, portA);
    const servedB = await startServe(b, portB);
    try {
      const loopSkipped = async () => {
        const rows = [
          byName((await health(servedA.url)).servers).get('b'),
          byName((await health(servedB.url)).servers).get('a'),
        ];
        return rows.some(
          (row) => row?.state === 'skipped' && /gateway loop/.test(row.lastError?.message ?? ''),
        );
      };
      await waitUntil(loopSkipped, 'until loopSkipped', 30_000);
      // Whatever the order they met in, no name went round the cycle.
      const names = [...(await toolNames(servedA.url)), ...(await toolNames(servedB.url))];
      expect(names.filter((name) => /(a__b__|b__a__)/.test(name))).toEqual([]);
      expect(await callEcho(servedA.url, 'echo__echo', 'still works')).toBe('still works');
    } finally {
      await servedB.stop();
      await servedA.stop();
    }
  });

  it('A → B → A over stdio is refused: the second A refuses to start, B skips it', async () => {
    const dir = folder('stdio-cycle', {});
    const aFile = join(dir, 'a.json');
    const bFile = join(dir, 'b.json');
    const serveStdio = (file: string) => ({
      command: process.execPath,
      args: [cliBin, 'serve', '--stdio', '--config', file],
      env: SERVE_BOX_OFF,
    });
    writeFileSync(aFile, JSON.stringify({ servers: { echo, b: serveStdio(bFile) } }));
    writeFileSync(bFile, JSON.stringify({ servers: { echo, a: serveStdio(aFile) } }));
    const served = await startServe(dir, portA, ['--config', aFile]);
    const peak = await peakDescendants(served.pid, 3000);
    const seen = descendants(served.pid);
    try {
      // B, two echo fixtures, and the second A for the moment it takes to refuse.
      expect(peak).toBeLessThanOrEqual(2 * HANDFUL);
      expect(byName((await health(served.url)).servers).get('b')?.state).toBe('connected');
      const names = await toolNames(served.url);
      expect(names).toContain('b__echo__echo');
      expect(names.filter((name) => name.startsWith('b__a__'))).toEqual([]);
      // The second A exited at once ("mcptools gateway loop" on its stderr) and B marked it
      // skipped: no `b__a__…` tools, no process left of it, and B still answers.
      expect(await callEcho(served.url, 'b__echo__echo', 'via B')).toBe('via B');
    } finally {
      expect(await served.stop()).toBe(0);
    }
    await waitUntil(() => seen.every((pid) => !alive(pid)), 'until seen.every((pid) => !alive(pid))', 5000);
  });

  it('a gateway that B reaches back over HTTP refuses B’s requests (508), and B skips it', async () => {
    const dir = folder('mixed-cycle', {});
    const aFile = join(dir, 'a.json');
    const bFile = join(dir, 'b.json');
    writeFileSync(
      aFile,
      JSON.stringify({
        servers: {
          echo,
          b: {
            command: process.execPath,
            args: [cliBin, 'serve', '--stdio', '--config', bFile],
            env: SERVE_BOX_OFF,
          },
        },
      }),
    );
    writeFileSync(bFile, JSON.stringify({ servers: { echo, a: { type: 'http', url: urlA } } }));
    const served = await startServe(dir, portA, ['--config', aFile]);
    try {
      expect(byName((await health(served.url)).servers).get('b')?.state).toBe('connected');
      const names = await toolNames(served.url);
      expect(names).toContain('b__echo__echo');
      expect(names.filter((name) => name.startsWith('b__a__'))).toEqual([]);
      // The refusal itself: a request carrying A's own token comes back 508.
      const own = (await fetch(new URL('/healthz', served.url))).headers.get('mcptools-gateway-reach');
      expect(own).toMatch(/^[0-9a-f]{8}-[0-9a-f]{12}/);
      const looped = await fetch(served.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcptools-gateway-chain': own!.split(',')[0]!,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(looped.status).toBe(508);
      expect(JSON.stringify(await looped.json())).toContain('mcptools gateway loop');
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });
});
