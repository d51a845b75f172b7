import { execFile } from 'node:child_process';

/** Tells one gateway's containers apart: `mcptools-<gateway pid>-<n>`. */
let sequence = 0;

/** How long the engine gets to remove a container when its server ends. */
const REMOVE_MS = 10_000;

/**
 * The container of one boxed server: named before it starts, and removed (`rm -f`) once the
 * engine's client process has ended. Ending the client does not stop a container on its own
 * (the engine's daemon runs it), so the removal is what ends the server's processes.
 */
export class ContainerBox {
  readonly name = `mcptools-${process.pid}-${++sequence}`;
  readonly #engine: string;

  constructor(engine: string) {
    this.#engine = engine;
  }

  async open(): Promise<void> {}

  /** Removes the container (gone already with `--rm` when the server ended on its own: no error). */
  close(): Promise<void> {
    return new Promise((resolve) => {
      execFile(this.#engine, ['rm', '--force', this.name], { timeout: REMOVE_MS }, () => resolve());
    });
  }
}
