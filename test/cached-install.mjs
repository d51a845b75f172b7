// Installs a pinned npm package on demand into a git-ignored cache folder (never as a dependency
// of mcptools), for the scripts that drive third-party software: `npm run test:hosts`,
// `npm run test:openclaw`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const INSTALL_TIMEOUT_MS = 20 * 60_000;

/** The version of `name` installed under `prefix`, or `undefined`. */
export function installedVersion(prefix, name) {
  try {
    return JSON.parse(readFileSync(join(prefix, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/**
 * Installs `spec` (`name@version`) into `<cache>/<folder>` with npm, install scripts off, unless
 * `ready(prefix)` already holds; returns the prefix. Throws with npm's last lines when the
 * install fails or leaves `ready` false.
 */
export function cachedInstall(cache, folder, spec, ready, log = (line) => process.stderr.write(`${line}\n`)) {
  const prefix = join(cache, folder);
  if (ready(prefix)) return prefix;
  mkdirSync(prefix, { recursive: true });
  if (!existsSync(join(prefix, 'package.json'))) {
    writeFileSync(join(prefix, 'package.json'), `${JSON.stringify({ private: true }, null, 2)}\n`);
  }
  log(`installing ${spec} into ${prefix} (install scripts off)…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    ['install', '--prefix', prefix, spec, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
    { encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (result.error || result.status !== 0 || !ready(prefix)) {
    const why = result.error?.message ?? `npm exited with ${result.status}`;
    const tail = `${result.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new Error(`could not install ${spec} from the npm registry into ${prefix}: ${why}\n${tail}`);
  }
  return prefix;
}
