import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { PLUGINS_MODULE_URL } from './plugin-module-url.js';
import { findPackageRoot } from './resolve-plugin-location.js';

/** What a plugin entry module provides once unwrapped. */
export interface PluginEntryExport {
  /** The definition object (`{ id, name, configSchema, register }`), when the entry exported one. */
  definition?: Record<string, unknown>;
  register: (api: unknown) => unknown;
}

type JitiImporter = { import(id: string): Promise<unknown> };

const SDK_SPECIFIERS = ['openclaw/plugin-sdk', 'clawdbot/plugin-sdk', 'moltbot/plugin-sdk'];
/** Sub-paths of the real SDK that re-export the same entry, parameter and result helpers as its root. */
const ROOT_ALIKE_SUBPATHS = ['core', 'agent-runtime'];

/**
 * The real `openclaw` package when it is installed beside mcptools: its `./plugin-sdk/<name>`
 * exports, by subpath. `undefined` when there is none.
 */
function realSdkSubpaths(): Map<string, string> | undefined {
  const root = findPackageRoot('openclaw', fileURLToPath(new URL('.', PLUGINS_MODULE_URL)));
  if (!root) return undefined;
  let exports: Record<string, unknown>;
  try {
    exports =
      (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports?: Record<string, unknown> })
        .exports ?? {};
  } catch {
    return undefined;
  }
  const subpaths = new Map<string, string>();
  for (const [key, target] of Object.entries(exports)) {
    const match = /^\.\/plugin-sdk\/(.+)$/.exec(key);
    const file =
      typeof target === 'string'
        ? target
        : ((target as Record<string, unknown> | null)?.import ??
          (target as Record<string, unknown> | null)?.default);
    if (match?.[1] && typeof file === 'string') subpaths.set(match[1], join(root, file));
  }
  return subpaths.size > 0 ? subpaths : undefined;
}

/**
 * Maps `openclaw/plugin-sdk/<name>` (and the older `clawdbot`/`moltbot` names) to the real
 * `openclaw` package when it is installed beside mcptools, else to our own helpers in
 * `plugin-sdk/` so plugins load with no OpenClaw install (the trick OpenClaw's own loader
 * plays with its jiti alias map). The root `openclaw/plugin-sdk`, which OpenClaw 2026.9
 * removed, maps to our helpers, or under `strict` to a module that fails the plugin. Works
 * from `src/` (.ts) and `dist/` (.js).
 */
export function pluginSdkAliases(
  options: { strict?: boolean; real?: Map<string, string> | false } = {},
): Record<string, string> {
  const sdkDir = fileURLToPath(new URL('./plugin-sdk/', PLUGINS_MODULE_URL));
  const real = options.real === false ? undefined : (options.real ?? realSdkSubpaths());
  const aliases: Record<string, string> = {};
  for (const file of readdirSync(sdkDir)) {
    const extension = extname(file);
    if (file.endsWith('.d.ts') || !['.ts', '.js', '.mjs'].includes(extension)) continue;
    const stem = file.slice(0, -extension.length);
    for (const specifier of SDK_SPECIFIERS) {
      if (stem !== 'index') {
        if (!real) aliases[`${specifier}/${stem}`] = join(sdkDir, file);
        continue;
      }
      aliases[specifier] = join(sdkDir, file);
      if (!real)
        for (const subpath of ROOT_ALIKE_SUBPATHS) aliases[`${specifier}/${subpath}`] = join(sdkDir, file);
    }
  }
  for (const [subpath, file] of real ?? []) {
    for (const specifier of SDK_SPECIFIERS) aliases[`${specifier}/${subpath}`] = file;
  }
  if (options.strict) {
    const removed = fileURLToPath(
      new URL(`./removed-sdk-root${extname(fileURLToPath(PLUGINS_MODULE_URL))}`, PLUGINS_MODULE_URL),
    );
    for (const specifier of SDK_SPECIFIERS) aliases[specifier] = removed;
  }
  return aliases;
}

const importers = new Map<boolean, Promise<JitiImporter>>();

async function createImporter(strict: boolean): Promise<JitiImporter> {
  // Loaded on first use so that importing mcptools stays cheap for users without plugins.
  const { createJiti } = await import('jiti');
  // jiti runs ESM, CommonJS and TypeScript alike, and applies the alias map to every
  // import in the plugin's graph, including ESM files Node would otherwise resolve itself.
  // Under strict the plugin's graph is evaluated afresh: a module cached by a lenient load must not skip the rules.
  return createJiti(PLUGINS_MODULE_URL, {
    interopDefault: true,
    alias: pluginSdkAliases({ strict }),
    ...(strict ? { moduleCache: false } : {}),
  });
}

/** The SDK subpath a failed import asked for, read from the resolver's message. */
function missingSdkSubpath(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const aliased = /plugin-sdk[\\/](?:index|removed-sdk-root)\.(?:ts|js|mjs)[\\/]([\w./-]+?)(?:['"\s]|$)/.exec(
    message,
  );
  if (aliased?.[1]) return aliased[1];
  if (!/cannot find|not found|ERR_MODULE_NOT_FOUND/i.test(message)) return undefined;
  const direct = /['"]((?:openclaw|clawdbot|moltbot)\/plugin-sdk\/[\w./-]+)['"]/.exec(message);
  return direct?.[1]?.replace(/^[^/]+\/plugin-sdk\//, '');
}

/**
 * Imports one plugin entry file (ESM, CommonJS or TypeScript) through jiti with the SDK
 * aliases. An `openclaw/plugin-sdk/<name>` that neither mcptools nor an installed `openclaw`
 * provides fails with `CONFIG_INVALID` naming the subpath.
 */
export async function importPluginModule(file: string, options: { strict?: boolean } = {}): Promise<unknown> {
  const strict = options.strict === true;
  let importer = importers.get(strict);
  if (!importer) {
    importer = createImporter(strict);
    importers.set(strict, importer);
  }
  try {
    return await (await importer).import(file);
  } catch (error) {
    const subpath = missingSdkSubpath(error);
    if (!subpath) throw error;
    const message = realSdkSubpaths()
      ? `imports "openclaw/plugin-sdk/${subpath}", which the openclaw installed beside mcptools does not export`
      : `imports "openclaw/plugin-sdk/${subpath}", which mcptools does not provide; install openclaw beside mcptools (it needs Node 24) to load this plugin`;
    throw new McpToolsError('CONFIG_INVALID', message, { cause: error });
  }
}

function unwrapDefault(value: unknown): unknown {
  let current = value;
  const seen = new Set<unknown>();
  while (current && typeof current === 'object' && 'default' in current && !seen.has(current)) {
    seen.add(current);
    current = (current as { default: unknown }).default;
  }
  return current;
}

/**
 * Finds the register function in a module: a function export, a definition object with
 * `register` (or the older `activate`), looked for under nested `default` and `module` keys.
 * Throws `CONFIG_INVALID` when there is none.
 */
export function resolvePluginEntryExport(moduleExport: unknown, file: string): PluginEntryExport {
  const candidates: unknown[] = [unwrapDefault(moduleExport), moduleExport];
  const seen = new Set<unknown>();
  for (let index = 0; index < candidates.length && index < 12; index++) {
    const candidate = candidates[index];
    if (seen.has(candidate)) continue;
    seen.add(candidate);
    if (typeof candidate === 'function') return { register: candidate as PluginEntryExport['register'] };
    if (candidate && typeof candidate === 'object') {
      const definition = candidate as Record<string, unknown>;
      const register = definition.register ?? definition.activate;
      if (typeof register === 'function') {
        return { definition, register: register as PluginEntryExport['register'] };
      }
      for (const key of ['default', 'module']) if (key in definition) candidates.push(definition[key]);
    }
  }
  throw new McpToolsError(
    'CONFIG_INVALID',
    `Plugin entry ${file} exports no register function, definition or function`,
  );
}
