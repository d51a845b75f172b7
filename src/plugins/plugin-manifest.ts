import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpToolsError } from '../errors/mcp-tools-error.js';

/** Per-tool metadata a manifest may declare (`toolMetadata.<tool>`). */
export interface PluginToolMetadata {
  /** Optional tools stay off unless an allow glob names them (OpenClaw semantics). */
  optional?: boolean;
  [key: string]: unknown;
}

/** The fields of `openclaw.plugin.json` the loader reads. */
export interface PluginManifest {
  id?: string;
  name?: string;
  description?: string;
  version?: string;
  /** JSON Schema of the plugin's config; defaults are applied before `register` sees it. */
  configSchema?: Record<string, unknown>;
  toolMetadata?: Record<string, PluginToolMetadata>;
  /** Entry files, for manifests that list them instead of package.json. */
  extensions?: string[];
  [key: string]: unknown;
}

/** The manifest's file name, as OpenClaw looks for it at a plugin's root. */
export const PLUGIN_MANIFEST_FILE = 'openclaw.plugin.json';

function readJsonObject(file: string, what: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new McpToolsError('CONFIG_INVALID', `${what} ${file} is not valid JSON`, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new McpToolsError('CONFIG_INVALID', `${what} ${file} must hold a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/** Reads `<rootDir>/openclaw.plugin.json`; `undefined` when there is none. */
export function readPluginManifest(rootDir: string): PluginManifest | undefined {
  const file = join(rootDir, PLUGIN_MANIFEST_FILE);
  if (!existsSync(file)) return undefined;
  const raw = readJsonObject(file, 'Plugin manifest');
  if (raw.configSchema !== undefined && (typeof raw.configSchema !== 'object' || raw.configSchema === null)) {
    throw new McpToolsError(
      'CONFIG_INVALID',
      `Plugin manifest ${file}: configSchema must be a JSON Schema object`,
    );
  }
  return raw as PluginManifest;
}

/** Reads `<rootDir>/package.json`; `undefined` when there is none. */
export function readPackageJson(rootDir: string): Record<string, unknown> | undefined {
  const file = join(rootDir, 'package.json');
  return existsSync(file) ? readJsonObject(file, 'Package file') : undefined;
}
