import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { until } from '../mcp/hub-test-helpers.js';
import { connectClient, toolNames, watchToolChanges } from './gateway-test-helpers.js';
import { type ServedHttp, startServeHttp } from './start-serve-http.js';

// `mcptools serve` reloads more than servers on SIGHUP: profiles, policies and the router
// settings apply from the next request, each client hearing one list_changed for what it sees.

let dir: string;
let configFile: string;
let served: ServedHttp;
const clients: Client[] = [];

const echo = () => ({ type: 'stdio', ...fixtureCommand('echo') });
const servers = () => ({ a: echo(), b: echo() });

function writeConfig(rest: Record<string, unknown>): void {
  writeFileSync(configFile, JSON.stringify({ servers: servers(), ...rest }));
}

const textOf = (result: unknown) =>
  ((result as { content?: { type: string; text?: string }[] }).content ?? [])
    .map((block) => block.text ?? '')
    .join('');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-reload-settings-'));
  configFile = join(dir, 'mcptools.json');
  writeConfig({
    gateway: {
      profiles: {
        widened: { servers: { allow: ['a'] } },
        steady: { servers: { allow: ['b'] } },
        dropped: { servers: { allow: ['a'] } },
        routed: { mode: 'router' },
      },
    },
  });
  served = await startServeHttp(['--config', configFile]);
}, 90_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await served?.close();
  rmSync(dir, { recursive: true, force: true });
});

const connect = async (path: string, era: 'modern' | 'legacy') => {
  const client = await connectClient(`${served.url}${path}`, era);
  clients.push(client);
  return { client, changes: await watchToolChanges(client, era) };
};

describe('serve reloads profiles, policies and router settings on SIGHUP', () => {
  it('applies them from the next request; one list_changed to each client whose list changed, none to others', async () => {
    const widened = {
      legacy: await connect('/widened', 'legacy'),
      modern: await connect('/widened', 'modern'),
    };
    const steady = { legacy: await connect('/steady', 'legacy'), modern: await connect('/steady', 'modern') };
    const dropped = await connect('/dropped', 'legacy');
    const routed = await connect('/routed', 'legacy');
    const main = await connect('', 'legacy');
    expect(await toolNames(widened.legacy.client)).not.toContain('b__echo');
    const denied = await main.client.callTool({ name: 'a__echo', arguments: { text: 'hi' } });
    expect(denied.isError).not.toBe(true);
    const index = await routed.client.callTool({ name: 'tool_index', arguments: {} });
    const fullIndex = textOf(index);
    expect(fullIndex.length).toBeGreaterThan(600);

    writeConfig({
      gateway: {
        profiles: {
          widened: { servers: { allow: ['a', 'b'] } },
          steady: { servers: { allow: ['b'] } },
          routed: { mode: 'router' },
        },
      },
      policies: { deny: [{ match: { tools: ['a__echo'] }, reason: 'echo of a is off for now' }] },
      router: { toolIndexMaxBytes: 512 },
    });
    process.kill(served.child.pid!, 'SIGHUP');
    await until(
      () => (/reloaded .*profiles: 0 added, 1 removed, 3 kept/.test(served.stderr()) ? true : undefined),
      30_000,
      'the reload',
    );

    // Profiles: the widened one serves b now; the removed one serves nothing.
    expect(await toolNames(widened.legacy.client)).toContain('b__echo');
    expect(await toolNames(widened.modern.client)).toContain('b__echo');
    expect(await toolNames(dropped.client)).toEqual([]);
    // Policies: the next call is denied, with the configured reason.
    const refused = await main.client.callTool({ name: 'a__echo', arguments: { text: 'hi' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('echo of a is off for now');
    // Router settings: tool_index answers within the new budget.
    const shortIndex = textOf(await routed.client.callTool({ name: 'tool_index', arguments: {} }));
    expect(shortIndex.length).toBeLessThan(fullIndex.length);
    expect(Buffer.byteLength(shortIndex)).toBeLessThanOrEqual(512);

    await until(
      () =>
        widened.legacy.changes() >= 1 && widened.modern.changes() >= 1 && dropped.changes() >= 1
          ? true
          : undefined,
      10_000,
      'list_changed',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(widened.legacy.changes()).toBe(1);
    expect(widened.modern.changes()).toBe(1);
    expect(dropped.changes()).toBe(1);
    expect(steady.legacy.changes()).toBe(0);
    expect(steady.modern.changes()).toBe(0);
    // The default profile's list did not change (a denial is not a listing change).
    expect(main.changes()).toBe(0);
  }, 120_000);

  it('a broken profile changes nothing and the error names the file, the profile and the field', async () => {
    const before = served.stderr().length;
    writeConfig({ gateway: { profiles: { widened: { servers: { allow: 5 } } } } });
    process.kill(served.child.pid!, 'SIGHUP');
    const message = await until(
      () => /reload refused[^\n]*/.exec(served.stderr().slice(before))?.[0],
      20_000,
      'the refusal',
    );
    expect(message).toContain(configFile);
    expect(message).toContain('widened');
    expect(message).toContain('allow');
    const page = await (await fetch(new URL('/', served.url))).text();
    expect(page).toContain('configuration reload refused');
    const client = await connectClient(`${served.url}/widened`, 'legacy');
    clients.push(client);
    expect(await toolNames(client)).toContain('b__echo');
    // The policies loaded by the last good reload still hold.
    const refused = await client.callTool({ name: 'a__echo', arguments: { text: 'hi' } });
    expect(refused.isError).toBe(true);
  }, 60_000);
  it('loads a plugin added to the file and unloads one removed from it', async () => {
    const settled = {
      gateway: {
        profiles: {
          widened: { servers: { allow: ['a', 'b'] } },
          steady: { servers: { allow: ['b'] } },
          routed: { mode: 'router' },
        },
      },
      policies: { deny: [{ match: { tools: ['a__echo'] }, reason: 'echo of a is off for now' }] },
      router: { toolIndexMaxBytes: 512 },
    };
    const main = await connect('', 'legacy');
    expect(await toolNames(main.client)).not.toContain('esm_sum');
    let before = served.stderr().length;
    writeConfig({
      ...settled,
      plugins: [fileURLToPath(new URL('../fixtures/plugins/esm-plugin.mjs', import.meta.url))],
    });
    process.kill(served.child.pid!, 'SIGHUP');
    await until(
      () => (/reloaded /.test(served.stderr().slice(before)) ? true : undefined),
      30_000,
      'the reload',
    );
    expect(await toolNames(main.client)).toContain('esm_sum');
    const sum = await main.client.callTool({ name: 'esm_sum', arguments: { a: 2, b: 3 } });
    expect(textOf(sum)).toContain('5');
    await until(() => (main.changes() >= 1 ? true : undefined), 10_000, 'list_changed');

    before = served.stderr().length;
    writeConfig(settled);
    process.kill(served.child.pid!, 'SIGHUP');
    await until(
      () => (/reloaded /.test(served.stderr().slice(before)) ? true : undefined),
      30_000,
      'the reload',
    );
    expect(await toolNames(main.client)).not.toContain('esm_sum');
    await until(() => (main.changes() >= 2 ? true : undefined), 10_000, 'the second list_changed');
  }, 90_000);
});
