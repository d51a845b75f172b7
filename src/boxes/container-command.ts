import { isAbsolute } from 'node:path';
import { networkGrant, type SandboxSettings } from '../config/sandbox-settings.js';
import type { BoxedLaunch, StdioLaunch } from './bwrap-command.js';

/** The container's private home, on its private `/tmp` (as in a bubblewrap box). */
const CONTAINER_HOME = '/tmp/home';
/** The unprivileged user and group the container runs as (`nobody`). */
const CONTAINER_ID = '65534:65534';

/**
 * The variables the engine's own command line program needs to reach its daemon or socket: they
 * are in its environment only, never passed into the container (only `-e` names are).
 */
const ENGINE_ENV = [
  'PATH',
  'HOME',
  'DOCKER_HOST',
  'DOCKER_CONTEXT',
  'DOCKER_CONFIG',
  'DOCKER_CERT_PATH',
  'DOCKER_TLS_VERIFY',
  'CONTAINER_HOST',
  'CONTAINERS_CONF',
  'XDG_RUNTIME_DIR',
  'XDG_CONFIG_HOME',
];

/**
 * The `docker run` (or `podman run`) command line that runs `launch` in `grants.image` with only
 * what `grants` allow, as flags: no network unless `"all"`, a read-only root with a private
 * `/tmp` (the home), user 65534 with every capability dropped and no new privileges, the granted
 * paths (read-only or writable) and the working directory (read-only unless granted), the
 * process, memory, CPU, open-file and CPU-time limits, and `--init` so the server's children
 * are reaped. `name` names the container (so it can be removed when the server ends, `--rm`
 * and `docker rm -f`). The environment: the entry's `env` and the names `env` grants, passed
 * as `-e NAME` with the values in the engine's environment, never on its command line; the
 * engine's own variables (`DOCKER_HOST`, …) reach the engine and not the container.
 */
export function containerCommand(
  engine: string,
  launch: StdioLaunch,
  grants: SandboxSettings & { image: string },
  name: string,
  maxProcesses: number,
  hostEnv: NodeJS.ProcessEnv = process.env,
): BoxedLaunch {
  const network = networkGrant(grants.network);
  if (typeof network === 'object')
    throw new Error('a sandbox network allowlist needs the bubblewrap box, not an image');
  const args = ['run', '--rm', '--interactive', '--init', '--name', name, '--label', 'mcptools.box=1'];
  args.push('--network', network === 'all' ? 'bridge' : 'none');
  args.push('--read-only', '--tmpfs', '/tmp', '--user', CONTAINER_ID);
  args.push('--cap-drop', 'ALL', '--security-opt', 'no-new-privileges');
  args.push('--pids-limit', String(maxProcesses));
  if (grants.maxMemoryBytes !== undefined)
    // Swap included: the limit is the container's memory, not memory plus as much swap.
    args.push('--memory', String(grants.maxMemoryBytes), '--memory-swap', String(grants.maxMemoryBytes));
  if (grants.maxCpus !== undefined) args.push('--cpus', String(grants.maxCpus));
  if (grants.maxOpenFiles !== undefined)
    args.push('--ulimit', `nofile=${grants.maxOpenFiles}:${grants.maxOpenFiles}`);
  if (grants.maxCpuSeconds !== undefined)
    args.push('--ulimit', `cpu=${grants.maxCpuSeconds}:${grants.maxCpuSeconds + 1}`);
  const written = new Set(grants.write ?? []);
  const granted = [...(grants.read ?? []), ...written];
  for (const path of grants.read ?? [])
    if (!written.has(path)) args.push('--volume', `${requireAbsolute(path, 'read')}:${path}:ro`);
  for (const path of written) args.push('--volume', `${requireAbsolute(path, 'write')}:${path}`);
  if (launch.cwd !== undefined) {
    if (!granted.some((path) => launch.cwd === path || launch.cwd!.startsWith(`${path}/`)))
      args.push('--volume', `${requireAbsolute(launch.cwd, 'cwd')}:${launch.cwd}:ro`);
    args.push('--workdir', launch.cwd);
  }
  const box: Record<string, string> = {};
  for (const variable of grants.env ?? []) {
    const value = hostEnv[variable];
    if (value !== undefined) box[variable] = value;
  }
  Object.assign(box, launch.env);
  // HOME's value is no secret: on the command line, so the engine keeps its own home (its config).
  if (!Object.hasOwn(box, 'HOME')) args.push('--env', `HOME=${CONTAINER_HOME}`);
  for (const variable of Object.keys(box)) args.push('--env', variable);
  args.push(grants.image, launch.command, ...launch.args);
  const env: Record<string, string> = {};
  for (const variable of ENGINE_ENV) {
    const value = hostEnv[variable];
    if (value !== undefined) env[variable] = value;
  }
  return { command: engine, args, env: Object.assign(env, box) };
}

/** A bind of a relative path would resolve against the gateway's own directory: refused. */
function requireAbsolute(path: string, field: string): string {
  if (!isAbsolute(path)) throw new Error(`sandbox ${field} paths must be absolute`);
  return path;
}
