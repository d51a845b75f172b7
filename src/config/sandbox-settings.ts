/**
 * What a boxed stdio server is granted (`"sandbox": { … }` on a server entry, or the default for
 * all). Everything not granted is absent from the box: no network, no files but the system's
 * read-only run-time directories, no environment but the entry's own `env` and the names listed.
 */
export interface SandboxSettings {
  /**
   * `"all"` (or `true`) shares the host's network (and `/etc/resolv.conf`, `/etc/hosts`, CA
   * certificates); `"none"` (or `false`, the default) leaves the box only its own loopback;
   * `{ allow: ["host:port", …] }` reaches those hosts only, through the gateway's egress proxy
   * (see egress-allowlist.ts).
   */
  network?: SandboxNetwork;
  /** Absolute paths bound read-only at the same place in the box. */
  read?: string[];
  /** Absolute paths bound read-write at the same place in the box. */
  write?: string[];
  /** Names of the gateway's environment variables passed into the box (the entry's `env` always is). */
  env?: string[];
  /**
   * At most this many open files per process (`RLIMIT_NOFILE`, set by `prlimit` in the box).
   */
  maxOpenFiles?: number;
  /**
   * At most this many bytes of data per process of the box (heap, `malloc` and writable private
   * mappings: `RLIMIT_DATA`, set by `prlimit`): past it an allocation fails, and a Node server
   * aborts (the gateway restarts it with its backoff). Where the box has a cgroup (find-cgroups.ts),
   * also the memory of the box as a whole (`memory.max`): past it the kernel kills a process of
   * the box. `RLIMIT_AS` is not used: Node and WebAssembly reserve far more address space than
   * they use.
   */
  maxMemoryBytes?: number;
  /**
   * At most this many processes and threads in the box together (`pids.max` of its cgroup;
   * default {@link DEFAULT_MAX_PROCESSES} where cgroups are usable). Set, it needs cgroups: a
   * server asking for it where there are none is refused. `RLIMIT_NPROC` is not used: it is not
   * enforced for a box of a gateway that runs as root (the box's user maps to root outside).
   */
  maxProcesses?: number;
  /**
   * At most this many CPUs' worth of time for the box as a whole (`0.5` is half a core): a
   * cgroup quota over each 100 ms period (`cpu.max`, v1 `cpu.cfs_quota_us`); past it the box's
   * processes wait for the next period (throttled, not killed). Set, it needs a cgroup `cpu`
   * controller: a server asking for it where there is none is refused.
   */
  maxCpus?: number;
  /**
   * Opt-in: at most this many seconds of CPU time per process (`RLIMIT_CPU`, set by `prlimit` in
   * the box); past it the process gets `SIGXCPU` and ends. A long-lived server reaches any such
   * limit in time, so it is off unless asked for; {@link maxCpus} is the limit that throttles.
   */
  maxCpuSeconds?: number;
  /**
   * A container image to run the server in, with Docker or Podman instead of bubblewrap: the
   * same grants as container flags (container-command.ts). The network is `"none"` or `"all"`
   * (an allowlist needs the bubblewrap box's egress relay).
   */
  image?: string;
  /** The engine for {@link image}: `docker` or `podman`; unset, the first of them that answers. */
  engine?: ContainerEngineName;
  /**
   * Set on the box `serve` gives by default only (serve-sandbox-default.ts), never read from a
   * file: where bubblewrap is missing the server runs unboxed, said on stderr and by `doctor`,
   * instead of being refused as a box the configuration asks for is.
   */
  ifAvailable?: boolean;
}

/** The container engines a box with an `image` can run on. */
export type ContainerEngineName = 'docker' | 'podman';

/** The process limit of a box with a cgroup and no `maxProcesses` (threads count: Node has about ten). */
export const DEFAULT_MAX_PROCESSES = 1024;

/** The `network` grant of a box: all, none, or an allowlist of `host:port` entries. */
export type SandboxNetwork = boolean | 'all' | 'none' | { allow: string[] };

/** What a `network` grant means: `'all'`, `'none'`, or the allowlist's entries. */
export function networkGrant(network: SandboxNetwork | undefined): 'all' | 'none' | { allow: string[] } {
  if (network === true || network === 'all') return 'all';
  if (network === undefined || network === false || network === 'none') return 'none';
  return network;
}

/**
 * A `sandbox` value as written: `true` (a box with no grants), `false` (never boxed, even when a
 * default says otherwise) or the grants.
 */
export type SandboxSetting = boolean | SandboxSettings;

/** The grants `setting` means, or `undefined` when it asks for no box. */
export function sandboxGrants(setting: SandboxSetting | undefined): SandboxSettings | undefined {
  if (setting === undefined || setting === false) return undefined;
  return setting === true ? {} : setting;
}
