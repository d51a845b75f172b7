import type { StdioLaunch } from '../boxes/bwrap-command.js';
import { ContainerBox } from '../boxes/container-box.js';
import { containerCommand } from '../boxes/container-command.js';
import { containerEngineMissingMessage, findContainerEngine } from '../boxes/find-container-engine.js';
import { DEFAULT_MAX_PROCESSES, type SandboxSettings } from '../config/sandbox-settings.js';
import { ReusableStdioTransport } from './reusable-stdio-transport.js';
import type { StderrTail } from './stderr-tail.js';

/**
 * The stdio transport of a server whose box names an image: the engine's `run` command
 * (boxes/container-command.ts) on the first engine that answers, the container removed when the server
 * ends. Without an engine that answers, the server is refused with a message naming each engine
 * and what it said.
 */
export async function containerTransport(
  server: string,
  grants: SandboxSettings & { image: string },
  launch: StdioLaunch,
  stderr: StderrTail,
): Promise<ReusableStdioTransport> {
  const found = await findContainerEngine(grants.engine);
  if (!found.available) throw new Error(containerEngineMissingMessage(server, grants.image, found.tried));
  const box = new ContainerBox(found.engine.path);
  const run = containerCommand(
    found.engine.path,
    launch,
    grants,
    box.name,
    grants.maxProcesses ?? DEFAULT_MAX_PROCESSES,
  );
  // The container's working directory is its own (`--workdir`); the engine's client runs anywhere.
  const { cwd: _, ...outside } = launch;
  return new ReusableStdioTransport({ ...outside, ...run }, stderr, box);
}
