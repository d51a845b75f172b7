import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where a host's files are looked for: the environment and platform, passed in so tests use a scratch home. */
export interface HostEnvironment {
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
}

/** The running process's environment and platform. */
export function processHostEnvironment(): HostEnvironment {
  return { env: process.env, platform: process.platform };
}

/** The home folder: `HOME` (`USERPROFILE` on Windows) when set, else the account's. */
export function homeOf({ env, platform }: HostEnvironment): string {
  const set = platform === 'win32' ? (env.USERPROFILE ?? env.HOME) : env.HOME;
  return set?.trim() ? set : homedir();
}

/**
 * The per-user application settings folder: `~/Library/Application Support` on macOS,
 * `%APPDATA%` on Windows, `$XDG_CONFIG_HOME` (else `~/.config`) elsewhere.
 */
export function appSettingsDir(host: HostEnvironment): string {
  const home = homeOf(host);
  if (host.platform === 'darwin') return join(home, 'Library', 'Application Support');
  if (host.platform === 'win32')
    return host.env.APPDATA?.trim() ? host.env.APPDATA : join(home, 'AppData', 'Roaming');
  return host.env.XDG_CONFIG_HOME?.trim() ? host.env.XDG_CONFIG_HOME : join(home, '.config');
}
