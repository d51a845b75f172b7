import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// Created on first use: commands that find a configuration file never need it.
let require: NodeJS.Require | undefined;

/**
 * The absolute path of the JavaScript file an installed package exposes as its binary,
 * so that it can be spawned with `process.execPath` instead of `npx` (no network, no shim).
 */
export function resolvePackageBin(packageName: string, binName?: string): string {
  require ??= createRequire(import.meta.url);
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin =
    typeof manifest.bin === 'string'
      ? manifest.bin
      : (manifest.bin?.[binName ?? ''] ?? Object.values(manifest.bin ?? {})[0]);
  if (!bin) throw new Error(`Package ${packageName} has no bin`);
  return join(dirname(manifestPath), bin);
}
