import { execFile, spawnSync } from 'node:child_process';
import type { ContainerEngineName } from '../config/sandbox-settings.js';
import { findOnPath } from '../paths/find-on-path.js';

/** An engine that answered: its name and the absolute path of its command line program. */
export interface ContainerEngine {
  name: ContainerEngineName;
  path: string;
}

/** The engine a box with an image runs on, or why none can: each engine tried and what it said. */
export type ContainerEngineFound =
  | { available: true; engine: ContainerEngine }
  | { available: false; tried: string[] };

/** How long an engine gets to answer `version` (a daemon that hangs counts as not answering). */
const ANSWER_MS = 5000;

/** The engines tried, in order: the one named, else Docker, then Podman. */
function candidates(preferred: ContainerEngineName | undefined): ContainerEngineName[] {
  return preferred === undefined ? ['docker', 'podman'] : [preferred];
}

/** The `version` command that needs the engine's daemon (Docker) or its storage (Podman) to answer. */
function versionArgs(name: ContainerEngineName): string[] {
  return ['version', '--format', name === 'docker' ? '{{.Server.Version}}' : '{{.Version}}'];
}

/** What an engine said when it did not answer, in one line. */
function failure(name: ContainerEngineName, output: string, error?: string): string {
  const said = (output.trim() || error || 'no answer').replace(/\s+/g, ' ').slice(0, 300);
  return `${name}: ${said}`;
}

/** The engines to try that are on `PATH`, in order; each one that is not is noted in `tried`. */
function* enginesOnPath(
  preferred: ContainerEngineName | undefined,
  env: NodeJS.ProcessEnv,
  tried: string[],
): Generator<{ name: ContainerEngineName; path: string }> {
  for (const name of candidates(preferred)) {
    const path = findOnPath(name, { env });
    if (path === undefined) tried.push(`${name}: not on PATH`);
    else yield { name, path };
  }
}

/**
 * The first engine (the one `preferred` names, else `docker` then `podman`) that is on `PATH`
 * and answers `version` (Docker's daemon or Podman reached), checked at each start so a daemon
 * started later is found. Never throws: what each engine said is kept for the message.
 */
export async function findContainerEngine(
  preferred?: ContainerEngineName,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ContainerEngineFound> {
  const tried: string[] = [];
  for (const { name, path } of enginesOnPath(preferred, env, tried)) {
    const answer = await new Promise<string | undefined>((resolve) => {
      execFile(
        path,
        versionArgs(name),
        { env, timeout: ANSWER_MS, encoding: 'utf8' },
        (error, stdout, stderr) =>
          resolve(error === null ? undefined : failure(name, stderr || stdout, error.message)),
      );
    });
    if (answer === undefined) return { available: true, engine: { name, path } };
    tried.push(answer);
  }
  return { available: false, tried };
}

/** {@link findContainerEngine}, blocking (for `mcptools doctor`, which asks once per server). */
export function findContainerEngineSync(
  preferred?: ContainerEngineName,
  env: NodeJS.ProcessEnv = process.env,
): ContainerEngineFound {
  const tried: string[] = [];
  for (const { name, path } of enginesOnPath(preferred, env, tried)) {
    const result = spawnSync(path, versionArgs(name), { env, timeout: ANSWER_MS, encoding: 'utf8' });
    if (result.status === 0) return { available: true, engine: { name, path } };
    tried.push(failure(name, result.stderr || result.stdout || '', result.error?.message));
  }
  return { available: false, tried };
}

/**
 * The message of a server whose entry names an image when no container engine answers: the
 * server is refused (never run unboxed, nor in bubblewrap instead of the image it named).
 */
export function containerEngineMissingMessage(server: string, image: string, tried: string[]): string {
  return `server "${server}" names the image "${image}" but no container engine is available (${tried.join('; ')}): start the Docker daemon or install Podman, or remove "sandbox.image" to box it with bubblewrap`;
}
