import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// The package entries as npm users import them: dist/index.js and its subpaths, bundled by scripts/bundle-library.mjs
// (`npm run build`, which `npm test` runs first). One bundle per entry and their shared chunks, not ~190
// tsc modules, with the modules that locate files beside themselves left in their place.
const DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../dist');
const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), 'fixtures/plugins');
const KEPT_OUT = ['./plugins/plugin-module-url.js', './router/search/thesaurus.js'];

/** The package's entries: the root and its subpaths (package.json `exports`), as dist/ names them. */
const ENTRIES = Object.keys(
  (JSON.parse(readFileSync(resolve(DIST, '../package.json'), 'utf8')) as { exports: object }).exports,
)
  .filter((subpath) => subpath !== './package.json')
  .map((subpath) => (subpath === '.' ? 'index' : subpath.slice(2)));
const load = <T>(name: string): Promise<T> => import(pathToFileURL(resolve(DIST, `${name}.js`)).href);

describe('the bundled package entry', () => {
  it('imports, of mcptools, only its own chunks and the modules kept out of the bundle', () => {
    const files = readdirSync(DIST).filter(
      (file) => ENTRIES.some((name) => file === `${name}.js`) || /^index-[A-Z0-9]+\.js$/.test(file),
    );
    expect(files.length).toBeGreaterThan(ENTRIES.length);
    const relative = new Set<string>();
    for (const file of files) {
      const source = readFileSync(resolve(DIST, file), 'utf8');
      for (const match of source.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g))
        relative.add(match[1] as string);
    }
    const outside = [...relative].filter((path) => !/^\.\/index-[A-Z0-9]+\.js$/.test(path));
    expect(outside.sort()).toEqual([...KEPT_OUT].sort());
    for (const path of KEPT_OUT)
      expect(readFileSync(resolve(DIST, path), 'utf8')).not.toMatch(
        /^(?:import|export)\s[^;]*?from\s+['"]\./m,
      );
  });

  it('loads plugins through the plugin SDK beside dist/plugins/, and refuses the removed root under strict', async () => {
    const { ToolRegistry } = await load<typeof import('../src/index.js')>('index');
    const { loadOpenClawPlugins } = await load<typeof import('../src/plugins.js')>('plugins');
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins(
      [resolve(FIXTURES, 'ts-plugin'), resolve(FIXTURES, 'root-sdk-plugin')],
      registry,
      { logger: {} },
    );
    expect(plugins.map((plugin) => plugin.status)).toEqual(['loaded', 'loaded']);
    const shout = (await registry.resolveAll()).find((tool) => tool.name === 'ts_shout');
    const result = await shout?.execute('c', { text: 'hi', times: 2 });
    expect(JSON.stringify(result?.content)).toContain('HI');
    const strict = await loadOpenClawPlugins([resolve(FIXTURES, 'root-sdk-plugin')], new ToolRegistry(), {
      logger: {},
      strict: true,
    });
    expect(strict.plugins[0]?.error).toMatch(
      /imports the root "openclaw\/plugin-sdk", which OpenClaw 2026.9 removed/,
    );
  });

  it('searches through the WordNet table read beside dist/router/search/', async () => {
    const { createToolSearchIndex } = await load<typeof import('../src/router.js')>('router');
    const shop = [
      { name: 'buy_item', description: 'Buy an item from the shop' },
      { name: 'sell_item', description: 'Sell an item in the shop' },
    ];
    expect(
      createToolSearchIndex(shop)
        .search('purchase', { limit: 5 })
        .map((hit) => hit.name),
    ).toEqual(['buy_item']);
  });
});
