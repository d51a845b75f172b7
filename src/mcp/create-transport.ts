import type { Transport } from '@modelcontextprotocol/client';
import type { TransportAuth } from '../auth/transport-auth.js';
import { entryLaunch, withArgumentMounts } from '../boxes/argument-mounts.js';
import { bwrapCommand } from '../boxes/bwrap-command.js';
import { cgroupLimitsMissing } from '../boxes/cgroup-limits-missing.js';
import {
  bubblewrapMissingMessage,
  cgroupsMissingMessage,
  defaultBoxSkippedMessage,
  findBubblewrap,
  socatMissingMessage,
} from '../boxes/find-bubblewrap.js';
import { protectedPaths } from '../boxes/protected-paths.js';
import { CHAIN_ENV, chainEnvironment } from '../chain/gateway-chain.js';
import { DEFAULT_MAX_PROCESSES, networkGrant, sandboxGrants } from '../config/sandbox-settings.js';
import { findOnPath } from '../paths/find-on-path.js';
import type { TransportKind } from './hub-types.js';
import { type ConnectionConfig, inProcessTransport } from './in-process-server.js';
import type { ChildResources, ReusableStdioParameters } from './reusable-stdio-transport.js';
import type { SizeLimits } from './size-limited-fetch.js';
import type { StderrTail } from './stderr-tail.js';

/** The transports worth trying for `config`, in order: `http` tries Streamable HTTP, then SSE. */
export function transportKindsFor(config: ConnectionConfig): TransportKind[] {
  switch (config.type) {
    case 'in-process':
      return ['in-memory'];
    case 'stdio':
      return ['stdio'];
    case 'sse':
      return ['sse'];
    case 'streamable-http':
      return ['streamable-http'];
    case 'http':
      return ['streamable-http', 'sse'];
  }
}

/** Stdio parameters as bwrap-command.ts reads them (`args` always set here). */
type BoxedParameters = ReusableStdioParameters & { args: string[] };

/** The stdio transport module, loaded once by the first stdio server (with `cross-spawn` under it). */
let stdioModule: Promise<typeof import('./reusable-stdio-transport.js')> | undefined;

/**
 * The HTTP transports' module, loaded once by the first HTTP server: a stdio-only hub never loads
 * the connection pool, the SSE and size limiters, node:http or node:zlib.
 */
let httpModule: Promise<typeof import('./create-http-transport.js')> | undefined;

/**
 * Builds the SDK transport of `kind` for `config`. Stdio children get the SDK's safe default
 * environment (the SDK adds it) plus the configured one, and their stderr read into `stderr`.
 * HTTP transports get `auth` (OAuth) as their `authProvider` and step-up `fetch`, over the size
 * limits (`limits`): Streamable HTTP through a pooled-http-fetch.ts pool of its own,
 * which its `close()` ends; legacy HTTP+SSE, and Streamable HTTP with `MCPTOOLS_HTTP_POOL=0`
 * (for a host whose HTTP must go through Node's global dispatcher: a proxy agent, client
 * certificates), through size-limited-fetch.ts over the global `fetch`. The stdio transport
 * (and `cross-spawn` under it) is loaded by the first stdio server, not by an import of mcptools.
 * A stdio server with a `sandbox` runs in a bubblewrap box (see bwrap-command.ts), or is refused
 * when bubblewrap is missing: a box asked for is never silently left out. A stdio server with a
 * lock (`config.locked`) runs what the locked package runner returns. `name` names the server
 * in the refusals. A server in this process is served on the other end of an in-memory pair.
 */
export async function createTransport(
  config: ConnectionConfig,
  kind: TransportKind,
  stderr: StderrTail,
  auth?: TransportAuth,
  limits?: SizeLimits,
  name = 'stdio',
  configFile?: string,
): Promise<Transport> {
  if (config.type === 'in-process') return inProcessTransport(config, stderr);
  if (config.type === 'stdio') {
    stdioModule ??= import('./reusable-stdio-transport.js');
    const { ReusableStdioTransport } = await stdioModule;
    let parameters: ReusableStdioParameters = { command: config.command, args: config.args ?? [] };
    let grants = sandboxGrants(config.sandbox);
    // serve's default box: where bubblewrap is missing the server runs unboxed, said on stderr.
    if (grants?.ifAvailable === true && grants.image === undefined && findBubblewrap() === undefined) {
      logBoxEvent(defaultBoxSkippedMessage(name));
      grants = undefined;
    }
    const bubblewrapBox = grants !== undefined && grants.image === undefined;
    // A server `mcptools add` locked starts only the locked package, boxed or not (locked-start.ts);
    // a boxed `npx`, `npm exec`, `pnpm dlx` or `bunx` entry is installed outside its box and run inside it from that folder.
    if (config.locked !== undefined || bubblewrapBox) {
      const { packageCommand, runtimeFolders } = await import('../catalog/package-runner.js');
      const run = await packageCommand(
        { command: config.command, args: config.args ?? [] },
        config.locked,
        name,
        { boxed: bubblewrapBox, log: logBoxEvent },
      );
      parameters = { command: run.command, args: run.args };
      if (bubblewrapBox && grants !== undefined) {
        // The installed package (under the state folder) and a Node outside the system's folders, read-only.
        const runtime = runtimeFolders(run);
        if (runtime.length > 0) grants = { ...grants, read: [...(grants.read ?? []), ...runtime] };
      }
    }
    // The gateway chain (see gateway-chain.ts) goes to every child, over its configured environment.
    const chain = chainEnvironment();
    if (config.env !== undefined || chain[CHAIN_ENV] !== undefined)
      parameters.env = { ...config.env, ...chain };
    if (config.cwd !== undefined) parameters.cwd = config.cwd;
    // An entry that names an image runs in a container of Docker or Podman, never elsewhere.
    if (grants?.image !== undefined) {
      const { containerTransport } = await import('./container-transport.js');
      return containerTransport(
        name,
        { ...grants, image: grants.image },
        parameters as BoxedParameters,
        stderr,
      );
    }
    if (grants !== undefined) {
      const bwrap = findBubblewrap();
      if (bwrap === undefined) throw new Error(bubblewrapMissingMessage(name));
      // The folders and files its configured `args` and `env` name are mounted; the gateway's own
      // files never (argument-mounts.ts). The entry's own args, not a locked start's: those name
      // the package runner's folders, which the runner grants itself.
      grants = withArgumentMounts(
        name,
        entryLaunch(config),
        grants,
        protectedPaths(process.env, configFile),
        process.env,
        configFile,
      );
      const { DEFAULT_INHERITED_ENV_VARS } = await import('@modelcontextprotocol/client/stdio');
      const network = networkGrant(grants.network);
      // An allowlist: the box reaches the egress proxy this process runs, for as long as its child runs.
      let egress: import('../boxes/egress-session.js').EgressSession | undefined;
      if (typeof network === 'object') {
        if (findOnPath('socat') === undefined) throw new Error(socatMissingMessage(name));
        const { EgressSession } = await import('../boxes/egress-session.js');
        egress = new EgressSession(name, network.allow, logBoxEvent);
      }
      // A cgroup of its own where this process can make one: the process limit (and the box's
      // total memory and CPU quota) hold for root too, where RLIMIT_NPROC does not.
      const { findCgroups } = await import('../boxes/find-cgroups.js');
      const cgroups = findCgroups();
      const missing = cgroupLimitsMissing(grants, cgroups);
      if (missing !== undefined) {
        await egress?.close();
        throw new Error(cgroupsMissingMessage(name, missing.setting, missing.reason));
      }
      // With a memory cgroup the box's memory is the cgroup's (a kill the kernel counts and the
      // report names); the per-process RLIMIT_DATA stands in only where there is none.
      const memoryCgroup = cgroups.available && cgroups.parents.memory !== undefined;
      const { maxMemoryBytes, ...rest } = grants;
      let boxed = bwrapCommand(
        bwrap,
        parameters as BoxedParameters,
        memoryCgroup ? rest : grants,
        DEFAULT_INHERITED_ENV_VARS,
        process.env,
        egress?.egress,
      );
      let cgroup: import('../boxes/box-cgroup.js').BoxCgroup | undefined;
      if (cgroups.available) {
        const { BoxCgroup } = await import('../boxes/box-cgroup.js');
        cgroup = new BoxCgroup(
          name,
          cgroups.parents,
          {
            maxProcesses: grants.maxProcesses ?? DEFAULT_MAX_PROCESSES,
            ...(maxMemoryBytes === undefined ? {} : { maxMemoryBytes }),
            ...(grants.maxCpus === undefined ? {} : { maxCpus: grants.maxCpus }),
          },
          // The gateway's log, and the server's stderr tail: the error of a server that a limit
          // stopped names the limit.
          (message) => {
            logBoxEvent(message);
            stderr.note(`mcptools: ${message}\n`);
          },
        );
        boxed = cgroup.wrap(boxed);
      }
      return new ReusableStdioTransport({ ...parameters, ...boxed }, stderr, together(cgroup, egress));
    }
    return new ReusableStdioTransport(parameters, stderr);
  }
  httpModule ??= import('./create-http-transport.js');
  const { createHttpTransport } = await httpModule;
  return createHttpTransport(config, kind, auth, limits);
}

/**
 * What a box reports (a refused egress request: method, host and port only; a limit it hit), one
 * line on stderr, the gateway's log.
 */
function logBoxEvent(message: string): void {
  process.stderr.write(`mcptools: ${message}\n`);
}

/** `first` and `second` as one: opened in that order, both closed. */
function together(first?: ChildResources, second?: ChildResources): ChildResources | undefined {
  if (first === undefined || second === undefined) return first ?? second;
  return {
    exited() {
      first.exited?.();
      second.exited?.();
    },
    async open() {
      await first.open();
      try {
        await second.open();
      } catch (error) {
        await first.close().catch(() => {});
        throw error;
      }
    },
    async close() {
      await Promise.allSettled([second.close(), first.close()]);
    },
  };
}
