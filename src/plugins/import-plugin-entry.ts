import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpToolsError } from '../errors/mcp-tools-error.js';

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
let importer: Promise<JitiImporter> | undefined;

/**
 * Maps `openclaw/plugin-sdk` and each `openclaw/plugin-sdk/<name>` to our own helpers in
 * `plugin-sdk/`, so plugins load with no OpenClaw install (the same trick OpenClaw's own
 * loader plays with its jiti alias map). Works from `src/` (.ts) and `dist/` (.js).
 */
export function pluginSdkAliases(): Record<string, string> {
  const sdkDir = fileURLToPath(new URL('./plugin-sdk/', import.meta.url));
  const aliases: Record<string, string> = {};
  for (const file of readdirSync(sdkDir)) {
    const extension = extname(file);
    if (file.endsWith('.d.ts') || !['.ts', '.js', '.mjs'].includes(extension)) continue;
    const stem = file.slice(0, -extension.length);
    for (const specifier of SDK_SPECIFIERS) {
      if (stem !== 'index') {
        aliases[`${specifier}/${stem}`] = join(sdkDir, file);
        continue;
      }
      aliases[specifier] = join(sdkDir, file);
      for (const subpath of ROOT_ALIKE_SUBPATHS) aliases[`${specifier}/${subpath}`] = join(sdkDir, file);
    }
  }
  return aliases;
}

async function createImporter(): Promise<JitiImporter> {
  // Loaded on first use so that importing mcptools stays cheap for users without plugins.
  const { createJiti } = await import('jiti');
  // jiti runs ESM, CommonJS and TypeScript alike, and applies the alias map to every
  // import in the plugin's graph, including ESM files Node would otherwise resolve itself.
  return createJiti(import.meta.url, { interopDefault: true, alias: pluginSdkAliases() });
}

/** Imports one plugin entry file (ESM, CommonJS or TypeScript) through jiti with the SDK aliases. */
export async function importPluginModule(file: string): Promise<unknown> {
  importer ??= createImporter();
  return (await importer).import(file);
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
