import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AllowEntry, parseAllowEntry } from '../config/allow-entry.js';
import { type BoxEgress, EGRESS_PRELOAD, EGRESS_PRELOAD_SOURCE, EGRESS_SOCKET } from './box-egress.js';
import { EgressProxy } from './egress-proxy.js';
import { undiciFolder } from './undici-folder.js';

/**
 * The egress proxy of one boxed server's process, from before it starts until it ends: a
 * private folder (mode 0700, removed at the end) with the proxy's socket and the Node preload,
 * which the box binds read-only. Refusals go to `onRefused`.
 */
export class EgressSession {
  readonly egress: BoxEgress;
  readonly #server: string;
  readonly #allow: AllowEntry[];
  readonly #onRefused: (message: string) => void;
  #proxy: EgressProxy | undefined;

  constructor(server: string, allow: readonly string[], onRefused: (message: string) => void) {
    this.#server = server;
    this.#allow = allow.map((entry) => {
      const parsed = parseAllowEntry(entry);
      if (parsed === undefined)
        throw new Error(`server "${server}": sandbox.network.allow entry "${entry}" is not host:port`);
      return parsed;
    });
    this.#onRefused = onRefused;
    // An unpredictable name, created at open() without `recursive`: a folder someone made there first fails it.
    this.egress = { dir: join(tmpdir(), `mcptools-egress-${randomUUID()}`), undici: undiciFolder() };
  }

  /** Makes the folder and the preload, and starts the proxy on its socket. */
  async open(): Promise<void> {
    if (this.#proxy !== undefined) return;
    mkdirSync(this.egress.dir, { mode: 0o700 });
    writeFileSync(join(this.egress.dir, EGRESS_PRELOAD), EGRESS_PRELOAD_SOURCE, { mode: 0o600 });
    const proxy = new EgressProxy({ server: this.#server, allow: this.#allow, onRefused: this.#onRefused });
    this.#proxy = proxy;
    await proxy.listen(join(this.egress.dir, EGRESS_SOCKET));
  }

  /** Stops the proxy (its tunnels too) and removes the folder. */
  async close(): Promise<void> {
    const proxy = this.#proxy;
    this.#proxy = undefined;
    await proxy?.close();
    rmSync(this.egress.dir, { recursive: true, force: true });
  }
}
