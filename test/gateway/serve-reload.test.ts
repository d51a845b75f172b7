import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { until } from '../mcp/hub-test-helpers.js';
import { connectClient, toolNames, watchToolChanges } from './gateway-test-helpers.js';
import { type ServedHttp, startServeHttp } from './start-serve-http.js';

// `mcptools serve` reloads its configuration on SIGHUP: servers added, removed and changed
// under load, without a restart; a broken file changes nothing.

let dir: string;
let configFile: string;
let served: ServedHttp;
const clients: Client[] = [];

const pidsIn = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => Number(line))
    : [];
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function writeConfig(servers: Record<string, unknown>): void {
  writeFileSync(
    configFile,
    JSON.stringify({ servers, gateway: { profiles: { keeponly: { servers: { allow: ['keep'] } } } } }),
  );
}

const echo = () => ({ type: 'stdio', ...fixtureCommand('echo') });
const crash = (log: string) => ({ type: 'stdio', ...fixtureCommand('crash', ['--start-log', log]) });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-reload-'));
  configFile = join(dir, 'mcptools.json');
  writeConfig({
    keep: echo(),
    gone: crash(join(dir, 'gone.pids')),
    changing: crash(join(dir, 'changing-1.pids')),
  });
  served = await startServeHttp(['--config', configFile]);
}, 90_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await served?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('serve reloads its configuration on SIGHUP', () => {
  it('adds, removes and changes servers under load; each client hears one list_changed for what it sees', async () => {
    const mainUrl = served.url;
    const keepOnlyUrl = `${served.url}/keeponly`;
    const connect = async (url: string, era: 'modern' | 'legacy') => {
      const client = await connectClient(url, era);
      clients.push(client);
      return { client, changes: await watchToolChanges(client, era) };
    };
    const legacy = await connect(mainUrl, 'legacy');
    const listener = await connect(mainUrl, 'modern');
    const legacyKeepOnly = await connect(keepOnlyUrl, 'legacy');
    const listenerKeepOnly = await connect(keepOnlyUrl, 'modern');
    expect(await toolNames(legacy.client)).toEqual(
      expect.arrayContaining(['keep__echo', 'gone__ok', 'changing__ok']),
    );
    const gonePids = pidsIn(join(dir, 'gone.pids'));
    const changingPids = pidsIn(join(dir, 'changing-1.pids'));
    expect(gonePids).toHaveLength(1);
    expect(changingPids).toHaveLength(1);

    // Calls in flight on the unchanged server while the reload applies.
    const inFlight = Array.from({ length: 4 }, () =>
      legacy.client.callTool({ name: 'keep__slow', arguments: { ms: 1500, steps: 3 } }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeConfig({ keep: echo(), changing: crash(join(dir, 'changing-2.pids')), fresh: echo() });
    process.kill(served.child.pid!, 'SIGHUP');

    const results = await Promise.all(inFlight);
    for (const result of results) expect(result.isError).not.toBe(true);
    await until(
      () =>
        /reloaded .*: 1 added, 1 removed, 1 changed, 1 unchanged/.test(served.stderr()) ? true : undefined,
      30_000,
      'the reload',
    );
    const names = await toolNames(legacy.client);
    expect(names).toEqual(expect.arrayContaining(['keep__echo', 'fresh__echo', 'changing__ok']));
    expect(names.some((name) => name.startsWith('gone__'))).toBe(false);
    // The removed server's process is gone; the changed one runs anew.
    await until(
      () => (gonePids.every((pid) => !alive(pid)) ? true : undefined),
      10_000,
      'the removed server to exit',
    );
    await until(
      () => (changingPids.every((pid) => !alive(pid)) ? true : undefined),
      10_000,
      'the old changed server to exit',
    );
    expect(pidsIn(join(dir, 'changing-2.pids'))).toHaveLength(1);
    // One list_changed each on /mcp, none on the profile that sees only the unchanged server.
    await until(
      () => (legacy.changes() >= 1 && listener.changes() >= 1 ? true : undefined),
      10_000,
      'list_changed',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(legacy.changes()).toBe(1);
    expect(listener.changes()).toBe(1);
    expect(legacyKeepOnly.changes()).toBe(0);
    expect(listenerKeepOnly.changes()).toBe(0);
    expect(await toolNames(legacyKeepOnly.client)).not.toContain('fresh__echo');
  }, 120_000);

  it('a broken file changes nothing and the error names the file, the server and the field', async () => {
    const before = served.stderr().length;
    writeConfig({ keep: echo(), fresh: { type: 'stdio' } });
    process.kill(served.child.pid!, 'SIGHUP');
    const message = await until(
      () => /reload refused[^\n]*/.exec(served.stderr().slice(before))?.[0],
      20_000,
      'the refusal',
    );
    expect(message).toContain(configFile);
    expect(message).toContain('fresh');
    expect(message).toContain('command');
    const page = await (await fetch(new URL('/', served.url))).text();
    expect(page).toContain('configuration reload refused');
    expect(page).toContain('fresh');
    const client = await connectClient(served.url, 'legacy');
    clients.push(client);
    expect(await toolNames(client)).toEqual(
      expect.arrayContaining(['keep__echo', 'fresh__echo', 'changing__ok']),
    );
    const result = await client.callTool({ name: 'fresh__echo', arguments: { text: 'still here' } });
    expect(result.isError).not.toBe(true);
  }, 60_000);
});
