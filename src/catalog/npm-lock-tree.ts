import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LockedNpmModule } from '../config/catalog-lock.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { runNpm } from './run-npm.js';

/** The project name of the generated `package.json` a locked npm server is installed from. */
export const LOCKED_PROJECT_NAME = 'mcptools-locked-server';

/** `identifier@version` resolved: its `dist.integrity` and the whole dependency tree. */
export interface NpmTree {
  integrity: string;
  modules: Record<string, LockedNpmModule>;
}

/**
 * Resolves `identifier@version` and every dependency to exact versions and tarball hashes, as npm
 * itself does (`npm install --package-lock-only`, no scripts run, nothing installed), from
 * `registryBaseUrl` when the record names one. A top-level spec alone would let each start resolve
 * the dependencies anew; the tree is what the lock keeps.
 */
export async function resolveNpmTree(
  identifier: string,
  version: string,
  registryBaseUrl: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<NpmTree> {
  const dir = await mkdtemp(join(tmpdir(), 'mcptools-npm-resolve-'));
  try {
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: LOCKED_PROJECT_NAME, private: true, dependencies: { [identifier]: version } }),
    );
    const args = ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'];
    if (registryBaseUrl !== undefined) args.push(`--registry=${registryBaseUrl}`);
    const run = await runNpm(args, dir, env);
    if (!run.ok)
      throw new McpToolsError(
        'UPSTREAM_ERROR',
        `npm could not resolve ${identifier}@${version}: ${lastLines(run.stderr)}`,
        { recoverable: false },
      );
    const lock = JSON.parse(await readFile(join(dir, 'package-lock.json'), 'utf8')) as {
      packages?: Record<string, LockedNpmModule & { name?: string }>;
    };
    const modules: Record<string, LockedNpmModule> = {};
    for (const [path, module] of Object.entries(lock.packages ?? {})) {
      if (path === '') continue;
      const { name: _name, ...rest } = module;
      modules[path] = rest;
    }
    const top = modules[`node_modules/${identifier}`];
    if (top?.version !== version || typeof top.integrity !== 'string')
      throw new McpToolsError(
        'UPSTREAM_ERROR',
        `npm resolved ${identifier}@${version} to ${top?.version ?? 'nothing'}${top?.integrity ? '' : ' without an integrity hash'}`,
        { recoverable: false },
      );
    return { integrity: top.integrity, modules };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The last few lines of npm's error output, for a message. */
export function lastLines(text: string, count = 4): string {
  return text.trim().split('\n').slice(-count).join(' ').replace(/\s+/g, ' ');
}
