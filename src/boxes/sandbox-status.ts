import { basename } from 'node:path';
import type { ServerConfig } from '../config/config-types.js';
import {
  DEFAULT_MAX_PROCESSES,
  networkGrant,
  type SandboxSettings,
  sandboxGrants,
} from '../config/sandbox-settings.js';
import { findOnPath } from '../paths/find-on-path.js';
import { argumentMounts, entryLaunch } from './argument-mounts.js';
import { cgroupLimitsMissing } from './cgroup-limits-missing.js';
import { findBubblewrap } from './find-bubblewrap.js';
import { findCgroups } from './find-cgroups.js';
import { findContainerEngineSync } from './find-container-engine.js';
import { protectedPaths } from './protected-paths.js';

/** Whether a server runs in a box, and why (or why not), for `mcptools doctor`. */
export interface SandboxStatus {
  boxed: boolean;
  reason: string;
}

/**
 * Whether `server` runs boxed with its (already defaulted) setting, and the reason in words: a
 * box asked for without bubblewrap is reported as such (that server is refused, never run unboxed).
 */
export function sandboxStatus(server: ServerConfig, env: NodeJS.ProcessEnv = process.env): SandboxStatus {
  if (server.type !== 'stdio') return { boxed: false, reason: 'an HTTP server: no process of ours to box' };
  const grants = sandboxGrants(server.sandbox);
  if (grants === undefined) {
    if (server.sandbox === false) return { boxed: false, reason: '"sandbox": false on the entry' };
    if (server.trusted === true) return { boxed: false, reason: '"trusted": true on the entry' };
    return {
      boxed: false,
      reason:
        'no "sandbox" setting (the CLI and the library box a server only when "sandbox" asks; serve boxes untrusted stdio servers by default)',
    };
  }
  if (grants.image !== undefined) return containerStatus(grants.image, grants, env);
  const bwrap = findBubblewrap(env);
  if (bwrap === undefined && grants.ifAvailable === true)
    return {
      boxed: false,
      reason:
        'serve\'s default box, but bubblewrap ("bwrap") is not on PATH: the server runs unboxed, with a warning ("gateway": { "sandbox": true } refuses it instead)',
    };
  if (bwrap === undefined)
    return {
      boxed: false,
      reason: 'a box is asked for but bubblewrap ("bwrap") is not on PATH: the server is refused',
    };
  const network = networkGrant(grants.network);
  if (typeof network === 'object' && findOnPath('socat', { env }) === undefined)
    return {
      boxed: false,
      reason:
        'a network allowlist is asked for but socat (the relay to the egress proxy) is not on PATH: the server is refused',
    };
  const cgroups = findCgroups();
  const missing = cgroupLimitsMissing(grants, cgroups);
  if (missing !== undefined)
    return {
      boxed: false,
      reason: `"${missing.setting}" is asked for but boxes get no cgroup for it here (${missing.reason}): the server is refused`,
    };
  const memoryCgroup = cgroups.available && cgroups.parents.memory !== undefined;
  const granted = [
    network === 'all'
      ? 'the whole network'
      : network === 'none'
        ? 'no network'
        : `network to ${network.allow.join(', ')} only (through the egress proxy)`,
    `${grants.read?.length ?? 0} read-only and ${grants.write?.length ?? 0} writable paths`,
    ...argumentMountsLine(server, grants),
    `${grants.env?.length ?? 0} passed variables`,
    ...(grants.maxMemoryBytes === undefined || memoryCgroup
      ? []
      : [`at most ${grants.maxMemoryBytes} bytes of data per process (no memory cgroup here)`]),
    ...(grants.maxOpenFiles === undefined ? [] : [`at most ${grants.maxOpenFiles} open files per process`]),
    ...(grants.maxCpuSeconds === undefined
      ? []
      : [`at most ${grants.maxCpuSeconds} s of CPU time per process`]),
    ...(cgroups.available
      ? [
          `at most ${grants.maxProcesses ?? DEFAULT_MAX_PROCESSES} processes in the box (cgroup v${cgroups.parents.version})`,
          ...(grants.maxMemoryBytes !== undefined && memoryCgroup
            ? [`at most ${grants.maxMemoryBytes} bytes of memory in the box`]
            : []),
          ...(grants.maxCpus === undefined ? [] : [`at most ${grants.maxCpus} CPUs for the box (CPU quota)`]),
        ]
      : [`no process limit (no cgroup here: ${cgroups.reason})`]),
  ];
  const why = grants.ifAvailable === true ? "serve's default box for untrusted stdio servers, " : '';
  const runner = server.locked === undefined ? packageRunnerOf(server.command, server.args ?? []) : undefined;
  const installed =
    runner === undefined ? '' : `, its ${runner} package installed outside the box and shown read-only`;
  return { boxed: true, reason: `${why}bubblewrap (${bwrap}): ${granted.join(', ')}${installed}` };
}

/**
 * The package runner a command line starts (`npx`, `npm exec`, `pnpm dlx`, `bunx`), whose package
 * a boxed start installs outside the box; the catalog's runner-command.ts reads the rest of the
 * line (this layer sits below it, so only the runner's name is read here).
 */
function packageRunnerOf(command: string, args: readonly string[]): string | undefined {
  const program = basename(command);
  if (program === 'npx') return 'npx';
  if (program === 'npm' && (args[0] === 'exec' || args[0] === 'x')) return 'npm exec';
  if (program === 'pnpx' || (program === 'pnpm' && args[0] === 'dlx')) return 'pnpm dlx';
  if (program === 'bunx' || (program === 'bun' && args[0] === 'x')) return 'bunx';
  return undefined;
}

/** Whether a box that names an image runs, and on which engine, with its limits as flags. */
function containerStatus(image: string, grants: SandboxSettings, env: NodeJS.ProcessEnv): SandboxStatus {
  const found = findContainerEngineSync(grants.engine, env);
  if (!found.available)
    return {
      boxed: false,
      reason: `the image "${image}" is asked for but no container engine is available (${found.tried.join('; ')}): the server is refused`,
    };
  const network = networkGrant(grants.network);
  const granted = [
    network === 'all' ? 'the whole network' : 'no network',
    `${grants.read?.length ?? 0} read-only and ${grants.write?.length ?? 0} writable paths`,
    `${grants.env?.length ?? 0} passed variables`,
    `at most ${grants.maxProcesses ?? DEFAULT_MAX_PROCESSES} processes`,
    ...(grants.maxMemoryBytes === undefined ? [] : [`at most ${grants.maxMemoryBytes} bytes of memory`]),
    ...(grants.maxCpus === undefined ? [] : [`at most ${grants.maxCpus} CPUs`]),
    ...(grants.maxOpenFiles === undefined ? [] : [`at most ${grants.maxOpenFiles} open files per process`]),
  ];
  return {
    boxed: true,
    reason: `${found.engine.name} (${found.engine.path}), image "${image}": ${granted.join(', ')}`,
  };
}

/**
 * What the entry's `args` and `env` add to its box (argument-mounts.ts), in words; nothing when they add
 * nothing or name a path a box never mounts (the start's error says that).
 */
function argumentMountsLine(
  server: { args?: string[]; cwd?: string; env?: Record<string, string> },
  grants: SandboxSettings,
): string[] {
  try {
    const added = argumentMounts('', entryLaunch(server), grants, protectedPaths());
    if (added.write.length + added.read.length === 0) return [];
    return [`from its args and env ${added.write.length} writable and ${added.read.length} read-only paths`];
  } catch {
    return [];
  }
}
