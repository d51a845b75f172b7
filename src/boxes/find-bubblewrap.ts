import { findOnPath } from '../paths/find-on-path.js';

/**
 * The absolute path of bubblewrap's `bwrap` on `PATH` (of `env`), or `undefined` when it is not
 * installed. Looked up at each start, so installing it needs no restart of the gateway.
 */
export function findBubblewrap(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (process.platform !== 'linux') return undefined;
  return findOnPath('bwrap', { env });
}

/** The message of a server whose setting demands a box when bubblewrap is missing. */
export function bubblewrapMissingMessage(server: string): string {
  return process.platform === 'linux'
    ? `server "${server}" is configured with "sandbox" but bubblewrap ("bwrap") was not found on PATH: install it (Debian and Ubuntu: apt-get install bubblewrap) or set "sandbox": false on this server`
    : `server "${server}" is configured with "sandbox" but boxes are built only on Linux (bubblewrap); set "sandbox": false on this server`;
}

/**
 * The message of a server whose box has a network allowlist when socat (the relay from the box
 * to the egress proxy) is missing: the server is refused, never given more network or none.
 */
export function socatMissingMessage(server: string): string {
  return `server "${server}" has a "sandbox.network" allowlist but socat (the relay from the box to the egress proxy) was not found on PATH: install it (Debian and Ubuntu: apt-get install socat) or change the server's "network"`;
}

/**
 * The message of a server whose box asks for a limit only a cgroup holds (`maxProcesses`,
 * `maxCpus`) where this process cannot make that cgroup.
 */
export function cgroupsMissingMessage(server: string, setting: string, reason: string): string {
  return `server "${server}" asks for "sandbox.${setting}" but boxes get no cgroup for it here (${reason}): run the gateway where it may create cgroups (a writable cgroup v1 hierarchy, or a cgroup v2 that delegates the controller), or remove "${setting}"`;
}

/**
 * The warning of a server `serve`'s default box covers when bubblewrap is missing: it runs
 * unboxed (a box the configuration asks for is refused instead, {@link bubblewrapMissingMessage}).
 */
export function defaultBoxSkippedMessage(server: string): string {
  return process.platform === 'linux'
    ? `server "${server}" runs unboxed: serve boxes untrusted stdio servers by default, but bubblewrap ("bwrap") was not found on PATH (Debian and Ubuntu: apt-get install bubblewrap; "gateway": { "sandbox": true } refuses to run them unboxed instead)`
    : `server "${server}" runs unboxed: serve boxes untrusted stdio servers by default on Linux only (bubblewrap)`;
}
