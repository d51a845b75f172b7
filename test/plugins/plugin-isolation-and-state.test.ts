import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { loadOpenClawPlugins } from '../../src/plugins/load-openclaw-plugins.js';
import { openBlobStore } from '../../src/plugins/plugin-blob-store.js';
import { openKeyedStore, openSyncKeyedStore } from '../../src/plugins/plugin-keyed-store.js';
import { pluginStateRoot } from '../../src/plugins/plugin-state-dir.js';
import { fixture, textOf } from './plugin-test-helpers.js';

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'mcptools-plugin-state-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function host(...specs: string[]) {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'test/plugins/fault-host.ts', ...specs],
    { timeout: 60_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    atLoad: Array<{ id: string; status: string; error?: string }>;
    answers: Record<string, string>;
    later: Array<{ id: string; status: string; error?: string }>;
  };
}

describe('a plugin that fails outside a call', () => {
  it('leaves a rejected promise behind in register: the host lives on and the plugin is in error with the reason', async () => {
    const seen = await host(fixture('rejecting-plugin.mjs'), fixture('cjs-plugin'));
    expect(seen.atLoad).toEqual([
      {
        id: 'rejecting-plugin',
        status: 'error',
        error: 'Plugin "rejecting-plugin" threw in register: unhandled rejection: left behind by register',
      },
      { id: 'cjs-plugin', status: 'loaded' },
    ]);
    expect(Object.keys(seen.answers)).toEqual(['cjs_greet']);
  });

  it('throws from a timer its tool started: the host lives on, the other plugins keep answering', async () => {
    const seen = await host(fixture('late-throwing-plugin.mjs'), fixture('cjs-plugin'));
    expect(seen.atLoad.map((plugin) => plugin.status)).toEqual(['loaded', 'loaded']);
    expect(seen.answers.late_throw_probe).toBe('ok');
    expect(seen.later[0]).toEqual({
      id: 'late-throwing-plugin',
      status: 'error',
      error:
        'Plugin "late-throwing-plugin" failed with an uncaught exception: thrown from a timer after the call',
    });
    expect(seen.later[1]).toEqual({ id: 'cjs-plugin', status: 'loaded' });
  });

  it('leaves a rejected promise behind in a tool factory: the tool still answers, the plugin is in error', async () => {
    const seen = await host(fixture('factory-rejecting-plugin.mjs'));
    expect(seen.atLoad).toEqual([{ id: 'factory-rejecting-plugin', status: 'loaded' }]);
    expect(seen.answers).toEqual({ factory_probe: 'made' });
    expect(seen.later).toEqual([
      {
        id: 'factory-rejecting-plugin',
        status: 'error',
        error:
          'Plugin "factory-rejecting-plugin" failed with an unhandled rejection: left behind by the factory',
      },
    ]);
  });
});

describe('api.runtime.state', () => {
  it('keeps a plugin counter and blob on disk under <stateDir>/plugins/<id>, across loads', async () => {
    const stateDir = join(scratch, 'state-a');
    const call = async (note?: string) => {
      const registry = new ToolRegistry();
      const loaded = await loadOpenClawPlugins([fixture('state-plugin')], registry, { stateDir, logger: {} });
      // An unnamed factory is listed by the manifest's contracts.tools.
      expect(loaded.plugins[0]).toMatchObject({ status: 'loaded', tools: ['state_counter'] });
      const [tool] = await registry.resolveAll();
      const result = await tool!.execute('c', note ? { note } : {});
      loaded.unload();
      return result;
    };
    expect(textOf(await call('first note'))).toBe('1');
    const second = await call();
    expect(second.details).toEqual({ calls: 2, syncSees: 2, note: 'first note', stateDir });
    const file = join(stateDir, 'plugins', 'state-plugin', 'keyed', 'counts.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject([{ key: 'calls', value: 2 }]);
    expect(existsSync(join(stateDir, 'plugins', 'state-plugin', 'blobs', 'notes', 'index.json'))).toBe(true);
  });

  it('defaults the root to $XDG_STATE_HOME/mcptools/openclaw, else ~/.local/state/mcptools/openclaw', () => {
    expect(pluginStateRoot(undefined, { XDG_STATE_HOME: '/x/state', HOME: '/home/u' })).toBe(
      '/x/state/mcptools/openclaw',
    );
    expect(pluginStateRoot(undefined, { HOME: '/home/u' })).toBe('/home/u/.local/state/mcptools/openclaw');
    expect(pluginStateRoot(undefined, { XDG_STATE_HOME: 'relative', HOME: '/home/u' })).toBe(
      '/home/u/.local/state/mcptools/openclaw',
    );
    expect(pluginStateRoot('/srv/state')).toBe('/srv/state');
  });

  it('keyed stores evict the oldest entry or refuse a new one at maxEntries, and expire entries', async () => {
    const dir = join(scratch, 'keyed');
    const evicting = openSyncKeyedStore(dir, { namespace: 'evict', maxEntries: 2 });
    evicting.register('a', 1);
    await new Promise((resolve) => setTimeout(resolve, 2));
    evicting.register('b', 2);
    await new Promise((resolve) => setTimeout(resolve, 2));
    evicting.register('c', 3);
    expect(evicting.entries().map((entry) => entry.key)).toEqual(['b', 'c']);
    expect(evicting.registerIfAbsent('c', 9)).toBe(false);
    expect(evicting.consume('b')).toBe(2);
    expect(evicting.lookup('b')).toBeUndefined();
    const refusing = await openKeyedStore(dir, {
      namespace: 'refuse',
      maxEntries: 1,
      overflowPolicy: 'reject-new',
    });
    await (refusing.register as (key: string, value: unknown) => Promise<void>)('one', { n: 1 });
    await expect(
      (refusing.register as (key: string, value: unknown) => Promise<void>)('two', 2),
    ).rejects.toThrow('Plugin state namespace "refuse" is full (1 entries)');
    const expiring = openSyncKeyedStore(dir, { namespace: 'ttl', maxEntries: 5 });
    expiring.register('soon', true, { ttlMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(expiring.lookup('soon')).toBeUndefined();
    expect(expiring.count()).toBe(0);
  });

  it('blob stores refuse an entry over maxBytesPerEntry and evict the oldest past maxBytesPerNamespace', async () => {
    const store = openBlobStore(join(scratch, 'blobs'), {
      namespace: 'b',
      maxEntries: 10,
      maxBytesPerEntry: 4,
      maxBytesPerNamespace: 6,
    });
    await expect(store.register('big', new Uint8Array(5), {})).rejects.toThrow('over the namespace');
    await store.register('x', new Uint8Array([1, 2, 3]), { n: 'x' });
    await store.register('y', new Uint8Array([4, 5, 6]), { n: 'y' });
    await store.register('z', new Uint8Array([7]), { n: 'z' });
    expect((await store.entries()).map((entry) => entry.key)).toEqual(['y', 'z']);
    expect([...((await store.lookup('y'))?.bytes ?? [])]).toEqual([4, 5, 6]);
    expect(await store.registerIfAbsent('y', new Uint8Array([0]), {})).toBe(false);
    expect(await store.delete('y')).toBe(true);
    expect(await store.lookup('y')).toBeUndefined();
  });
});

describe('tool factories and OpenClaw 2026.9 rules', () => {
  it('runs registerTool({ contextVersion: 2, create }) factories with assertInvocationCurrent', async () => {
    const registry = new ToolRegistry();
    const loaded = await loadOpenClawPlugins([fixture('v2-plugin')], registry, { logger: {} });
    expect(loaded.plugins[0]).toMatchObject({ status: 'loaded', tools: ['v2_probe'] });
    const [tool] = await registry.resolveAll({ agentId: 'agent-7' });
    expect(textOf(await tool!.execute('c', {}))).toBe('agent agent-7');
  });

  it('loads plugins OpenClaw 2026.9 refuses by default, and refuses them under strict with the rule broken', async () => {
    const specs = [
      fixture('function-plugin.mjs'),
      fixture('root-sdk-plugin'),
      fixture('async-strict-plugin'),
      fixture('cjs-plugin'),
      fixture('strict-ok-plugin'),
    ];
    const lenient = await loadOpenClawPlugins(specs, new ToolRegistry(), { logger: {} });
    expect(lenient.plugins.map((plugin) => plugin.status)).toEqual([
      'loaded',
      'loaded',
      'loaded',
      'loaded',
      'loaded',
    ]);
    const strict = await loadOpenClawPlugins(specs, new ToolRegistry(), { logger: {}, strict: true });
    expect(strict.plugins.map((plugin) => [plugin.id, plugin.status, plugin.error])).toEqual([
      [
        'function-plugin',
        'error',
        'Plugin "function-plugin" failed to load: has no openclaw.plugin.json manifest (strict)',
      ],
      [
        'root-sdk-plugin',
        'error',
        expect.stringMatching(
          /^Plugin "root-sdk-plugin" failed to load: .*imports the root "openclaw\/plugin-sdk", which OpenClaw 2026.9 removed/,
        ),
      ],
      [
        'async-strict-plugin',
        'error',
        'Plugin "async-strict-plugin" threw in register: register returned a promise; OpenClaw 2026.9 requires a synchronous register',
      ],
      [
        'cjs-plugin',
        'error',
        'Plugin "cjs-plugin" threw in register: registers tools but declares no contracts.tools in openclaw.plugin.json (strict)',
      ],
      ['strict-ok-plugin', 'loaded', undefined],
    ]);
  });
});
