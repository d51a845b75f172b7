import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { type PluginManifest, readPackageJson, readPluginManifest } from './plugin-manifest.js';

/** Where a plugin lives and what describes it. */
export interface PluginLocation {
  rootDir: string;
  /** Entry files to import, in order (a package may list several extensions). */
  entryFiles: string[];
  manifest?: PluginManifest;
  packageJson?: Record<string, unknown>;
  /** A fallback id: the package name without scope, else the entry file's name. */
  fallbackId: string;
}

const INDEX_CANDIDATES = ['index.ts', 'index.mts', 'index.js', 'index.mjs', 'index.cjs', 'dist/index.js'];

function looksLikePath(spec: string): boolean {
  return isAbsolute(spec) || spec.startsWith('.') || spec.startsWith('~') || /^[A-Za-z]:[\\/]/.test(spec);
}

function stringList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Finds `<node_modules>/<name>` along Node's lookup paths from `cwd`, without needing an exported package.json. */
export function findPackageRoot(name: string, cwd: string): string | undefined {
  const require = createRequire(join(cwd, '__mcptools_plugin_resolver__.js'));
  for (const lookup of require.resolve.paths(name) ?? []) {
    const candidate = join(lookup, name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
  }
  return undefined;
}

function packageEntryFiles(
  rootDir: string,
  packageJson: Record<string, unknown> | undefined,
  manifest?: PluginManifest,
) {
  const openclaw = (packageJson?.openclaw ?? {}) as Record<string, unknown>;
  // OpenClaw prefers the built `runtimeExtensions` over source `extensions` at run time.
  const lists = [openclaw.runtimeExtensions, openclaw.extensions, manifest?.extensions]
    .map(stringList)
    .filter((list) => list.length > 0);
  for (const list of lists) {
    const files = list.map((entry) => resolve(rootDir, entry)).filter((file) => existsSync(file));
    if (files.length > 0) return files;
  }
  if (lists.length > 0) {
    throw new McpToolsError('CONFIG_INVALID', `Plugin entry ${lists[0]?.[0]} not found in ${rootDir}`);
  }
  const main = typeof packageJson?.main === 'string' ? resolve(rootDir, packageJson.main) : undefined;
  if (main && existsSync(main) && statSync(main).isFile()) return [main];
  for (const candidate of INDEX_CANDIDATES) {
    const file = join(rootDir, candidate);
    if (existsSync(file)) return [file];
  }
  throw new McpToolsError(
    'CONFIG_INVALID',
    `No plugin entry found in ${rootDir} (no openclaw.extensions, main or index)`,
  );
}

/**
 * Resolves a plugin spec (an installed package name, a directory or an entry file) to its
 * root, manifest and entry files. Throws `CONFIG_INVALID` when nothing loadable is there.
 */
export function resolvePluginLocation(spec: string, cwd: string): PluginLocation {
  let target: string | undefined;
  if (looksLikePath(spec)) {
    const expanded = spec.startsWith('~') ? join(process.env.HOME ?? '', spec.slice(1)) : spec;
    target = resolve(cwd, expanded);
    if (!existsSync(target))
      throw new McpToolsError('CONFIG_INVALID', `Plugin path ${target} does not exist`);
  } else {
    target = findPackageRoot(spec, cwd);
    if (!target) {
      const local = resolve(cwd, spec);
      if (!existsSync(local))
        throw new McpToolsError('CONFIG_INVALID', `Plugin package "${spec}" is not installed`);
      target = local;
    }
  }
  if (statSync(target).isFile()) {
    // A bare entry file: only its own directory may describe it, never a parent project.
    const rootDir = dirname(target);
    const manifest = readPluginManifest(rootDir);
    return {
      rootDir,
      entryFiles: [target],
      ...(manifest ? { manifest } : {}),
      fallbackId: basename(target, extname(target)),
    };
  }
  const manifest = readPluginManifest(target);
  const packageJson = readPackageJson(target);
  const packageName = typeof packageJson?.name === 'string' ? packageJson.name : basename(target);
  return {
    rootDir: target,
    entryFiles: packageEntryFiles(target, packageJson, manifest),
    ...(manifest ? { manifest } : {}),
    ...(packageJson ? { packageJson } : {}),
    fallbackId: packageName.replace(/^@[^/]+\//, ''),
  };
}
