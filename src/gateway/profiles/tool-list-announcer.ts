import type { GatewayProfile, ServedSnapshot, ServedView } from './gateway-profile.js';

/** Which of a profile's clients to tell: the owner's view changed, everyone else's did. */
export interface ToolListChange {
  owner: boolean;
  shared: boolean;
}

function differs(before: ServedView | undefined, now: ServedView, touched: ReadonlySet<string>): boolean {
  if (before === undefined || before.definitions !== now.definitions) return true;
  for (const server of touched) if (before.servers.has(server) || now.servers.has(server)) return true;
  return false;
}

/**
 * Decides which profiles' clients hear a tool `list_changed`. After a change, every profile
 * lists its tools again and its clients are told when what they are served differs from what
 * it served at the last announcement — a native tool registered or removed, an upstream's
 * tools changed, `mcp_auth` coming or going — or when an upstream whose tools it serves
 * reported a change or reconnected (`touched`), even with the same definitions. A profile
 * that denies a server, or serves only the router tools, hears nothing of that server's tool
 * changes: its list did not change. Checks run one at a time; changes that arrive while one
 * runs are gathered into the next.
 */
export class ToolListAnnouncer {
  readonly #profiles: () => Iterable<GatewayProfile>;
  readonly #announce: (profile: GatewayProfile, change: ToolListChange) => void;
  readonly #log: (line: string) => void;
  readonly #baselines = new Map<GatewayProfile, ServedSnapshot>();
  readonly #touched = new Set<string>();
  #queued = false;
  #checking: Promise<void> = Promise.resolve();
  /** Holds in force (see {@link hold}), and whether a change arrived under them. */
  #holds = 0;
  #heldChange = false;

  constructor(
    profiles: () => Iterable<GatewayProfile>,
    announce: (profile: GatewayProfile, change: ToolListChange) => void,
    log: (line: string) => void,
  ) {
    this.#profiles = profiles;
    this.#announce = announce;
    this.#log = log;
  }

  /** Something may have changed the served tools; `server` when an upstream's tools did. */
  changed(server?: string): void {
    if (server !== undefined) this.#touched.add(server);
    for (const profile of this.#profiles()) profile.invalidate();
    if (this.#holds > 0) {
      this.#heldChange = true;
      return;
    }
    if (this.#queued) return;
    this.#queued = true;
    this.#checking = this.#checking.then(() => {
      this.#queued = false;
      return this.#check();
    });
  }

  /**
   * Announces nothing until the returned release is called, then checks once: a batch of changes
   * (a configuration reloaded) is one `list_changed` per client whose list changed.
   */
  hold(): () => void {
    this.#holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds--;
      if (this.#holds === 0 && this.#heldChange) {
        this.#heldChange = false;
        this.changed();
      }
    };
  }

  /** Resolves when every change reported so far has been checked (and announced). */
  settled(): Promise<void> {
    return this.#checking;
  }

  async #check(): Promise<void> {
    const touched = new Set(this.#touched);
    this.#touched.clear();
    for (const profile of this.#profiles()) {
      try {
        const before = this.#baselines.get(profile);
        const now = await profile.snapshot();
        this.#baselines.set(profile, now);
        // The first listing is the baseline: no client has seen an earlier one.
        if (before === undefined) continue;
        const change = {
          owner: differs(before.owner, now.owner, touched),
          shared: differs(before.shared, now.shared, touched),
        };
        if (change.owner || change.shared) this.#announce(profile, change);
      } catch (error) {
        this.#log(
          `tool list of profile "${profile.name}": ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
}
