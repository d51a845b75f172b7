import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
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
  'McpToolHubImpl',
  'RequestStateSeal',
];

/** Most names the root may export, values and types counted alike (deprecated aliases too). */
const ROOT_LIMIT = 60;

/**
 * Modules no entry may export from: the ambient scopes, the gateway's front door and core, the
 * cluster, the command line. A name from one of them is an internal handed out by accident.
 */
const INTERNAL_MODULES = [
  /^cli\//,
  /^cluster\//,
  /^crypto\//,
  /^http\//,
  /^gateway\/(auth|http)\//,
  /^gateway\/sessions\/downstream-session\.ts$/,
  /^gateway\/gateway-core\.ts$/,
  /^mcp\/caller-scope\.ts$/,
  /^mcp\/mcp-connection\.ts$/,
  /^pipeline\/tool-pipeline\.ts$/,
];

/** Each entry file of src/ → the names it exports (values and types) and the module each is declared in. */
function sourceEntries(): Map<string, Map<string, string[]>> {
  const files = readdirSync(resolve(root, 'src'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => resolve(root, 'src', file));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const entries = new Map<string, Map<string, string[]>>();
  for (const file of files) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file) as ts.SourceFile);
    const names = new Map<string, string[]>();
    for (const symbol of module === undefined ? [] : checker.getExportsOfModule(module)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const declaredIn = (target.declarations ?? []).map((declaration) =>
        declaration.getSourceFile().fileName.slice(resolve(root, 'src').length + 1),
      );
      names.set(symbol.name, declaredIn);
    }
    entries.set(file.slice(resolve(root, 'src').length + 1), names);
  }
  return entries;
}

describe('the package entries', () => {
  const entries = sourceEntries();

  it(`keep the root to at most ${ROOT_LIMIT} names, values and types counted alike`, () => {
    const names = [...(entries.get('index.ts')?.keys() ?? [])];
    // The control: the count sees types (`Tool`) as well as values (`loadConfig`).
    expect(names).toEqual(expect.arrayContaining(['Tool', 'loadConfig', 'ToolRegistry']));
    expect(
      names.length,
      `the root exports ${names.length} names: move some to a subpath`,
    ).toBeLessThanOrEqual(ROOT_LIMIT);
  });

  it('export nothing declared in an internal-only module, and each name from one entry only', () => {
    const internal: string[] = [];
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [entry, names] of entries)
      for (const [name, declaredIn] of names) {
        for (const module of declaredIn)
          if (INTERNAL_MODULES.some((pattern) => pattern.test(module)))
            internal.push(`${entry} exports ${name} from ${module}`);
        const other = seen.get(name);
        if (other === undefined) seen.set(name, entry);
        else twice.push(`${name}: ${other} and ${entry}`);
      }
    // The control: names resolve to the module that declares them.
    expect(entries.get('gateway.ts')?.get('createGateway')).toEqual(['gateway/create-gateway.ts']);
    expect(internal).toEqual([]);
    expect(twice).toEqual([]);
  });

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
    const declarations = readFileSync(resolve(root, target.types), 'utf8');
    // An entry of types only (`mcptools/mcp`) has no value to export, but declares its types.
    if (names.length === 0) expect(declarations, `${subpath} exports nothing`).toMatch(/^export type \{/m);
    expect(names.filter((name) => INTERNAL.includes(name))).toEqual([]);
    // The declarations say what the code exports: nothing reaches a user untyped.
    const undeclared = names.filter((name) => !new RegExp(`\\b${name}\\b`).test(declarations));
    expect(undeclared).toEqual([]);
  });

  it('keep the gateway, the router, the providers, the policies and the plugin loader out of the root', async () => {
    const rootEntry = (await import(pathToFileURL(resolve(root, 'dist/index.js')).href)) as object;
    const gatewayEntry = (await import(pathToFileURL(resolve(root, 'dist/gateway.js')).href)) as object;
    // The control: the name is exported, from its own subpath.
    expect(Object.keys(gatewayEntry)).toContain('createGateway');
    expect(Object.keys(rootEntry)).toContain('loadMcpServers');
    // The name before the one casing stays one release, deprecated: the same function.
    const rootNames = rootEntry as Record<string, unknown>;
    expect(rootNames.loadMCPServers).toBe(rootNames.loadMcpServers);
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
