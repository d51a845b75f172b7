import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The package's public surface: the root and a subpath per layer (package.json `exports`). Each
 * entry resolves in dist/ (built by `npm run build`, which `npm test` runs first), and no entry
 * hands out what is the package's own business: the ambient scopes, the front door's helpers,
 * the registry's internals.
 */
const root = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string; default: string }>;
};
const subpaths = Object.entries(pkg.exports).filter(([subpath]) => subpath !== './package.json');

/** Names an entry must never export: internals that a caller of the library cannot use safely. */
const INTERNAL = [
  'currentCaller',
  'runAsCaller',
  'runInToolCallScope',
  'tokensMatch',
  'guardRequest',
  'authenticateRequest',
  'GatewayCore',
  'ToolPipeline',
  'McpConnection',
  'McpToolHub',
  'RequestStateSeal',
];

describe('the package entries', () => {
  it('export the root and one subpath per entry file of src/, and nothing else', () => {
    const entryFiles = readdirSync(resolve(root, 'src'))
      .filter((file) => file.endsWith('.ts'))
      .map((file) => (file === 'index.ts' ? '.' : `./${file.replace(/\.ts$/, '')}`));
    expect(subpaths.map(([subpath]) => subpath).sort()).toEqual(entryFiles.sort());
  });

  it.each(subpaths)('%s resolves in dist/, types and code', async (subpath, target) => {
    if (typeof target === 'string') throw new Error(`${subpath}: give types and default`);
    expect(existsSync(resolve(root, target.types)), target.types).toBe(true);
    expect(existsSync(resolve(root, target.default)), target.default).toBe(true);
    const module = (await import(pathToFileURL(resolve(root, target.default)).href)) as object;
    const names = Object.keys(module);
    expect(names.length, `${subpath} exports nothing`).toBeGreaterThan(0);
    expect(names.filter((name) => INTERNAL.includes(name))).toEqual([]);
    // The declarations say what the code exports: nothing reaches a user untyped.
    const declarations = readFileSync(resolve(root, target.types), 'utf8');
    const undeclared = names.filter((name) => !new RegExp(`\\b${name}\\b`).test(declarations));
    expect(undeclared).toEqual([]);
  });

  it('keep the gateway, the router, the providers, the policies and the plugin loader out of the root', async () => {
    const rootEntry = (await import(pathToFileURL(resolve(root, 'dist/index.js')).href)) as object;
    const gatewayEntry = (await import(pathToFileURL(resolve(root, 'dist/gateway.js')).href)) as object;
    // The control: the name is exported, from its own subpath.
    expect(Object.keys(gatewayEntry)).toContain('createGateway');
    expect(Object.keys(rootEntry)).toContain('loadMCPServers');
    const elsewhere = [
      'createGateway',
      'createRouterTools',
      'toOpenAITools',
      'configPolicies',
      'loadOpenClawPlugins',
    ];
    expect(Object.keys(rootEntry).filter((name) => elsewhere.includes(name))).toEqual([]);
  });
});
