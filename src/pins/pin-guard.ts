import { type StatWatcher, unwatchFile, watchFile } from 'node:fs';
import type { PinMode, PinnedKind, PinsConfig } from '../config/pins-config.js';
import { scanDefinition } from '../guards/definition-scan.js';
import { describeFinding } from '../guards/finding.js';
import {
  canonicalView,
  changedFields,
  fingerprintOfCanonical,
  pinnedView,
  sameView,
} from './definition-fingerprint.js';
import {
  emptyServerPins,
  type PendingEntry,
  type PinEntry,
  type PinFileContent,
  pinKey,
  readPinFile,
  splitPinKey,
  updatePinFile,
} from './pin-file.js';

/** Options of a {@link PinGuard}. */
export interface PinGuardOptions extends PinsConfig {
  /** The pin file (absolute). */
  file: string;
  /** Where quarantines, removals and the approve command are told to an operator. */
  warn: (message: string, server?: string) => void;
  /** Called when definitions of `server` held back by this guard were approved (here or by another process). */
  approved?: (server: string) => void;
  /** Follow the file for approvals made by another process (`mcptools pins approve`). Default `true`. */
  watch?: boolean;
}

/** A definition this guard holds back. */
export interface Quarantined {
  server: string;
  kind: PinnedKind;
  name: string;
  /** What changed, for people and for the refusal the model reads: "new" or the fields. */
  change: string;
  fingerprint: string;
}

/**
 * Pins this process made (on first use, or by an approval), the kinds it saw first, or a server
 * it stopped trusting, as told to the other replicas of a cluster ({@link PinGuard.onChange}).
 */
export type PinChange =
  | {
      type: 'pinned';
      server: string;
      /** Pin key (`tool:search`) and entry of each definition pinned. */
      pins: { key: string; entry: PinEntry }[];
      /** The kinds this list was the first of. */
      seen: PinnedKind[];
      /** `true`: an operator approved them (they replace what the cluster pins); `false`: first use. */
      approval: boolean;
    }
  | { type: 'distrusted'; server: string };

/** What a cluster pins for one server: it replaces this process's pins of it ({@link PinGuard.replace}). */
export interface ClusterPins {
  pins: Record<string, PinEntry>;
  seen: PinnedKind[];
}

/** A definition's pinned view as last listed (a private copy) and its fingerprint. */
interface LastSeen {
  view: Record<string, unknown>;
  fingerprint: string;
}

/** How often the pin file is looked at for approvals made by another process. */
const WATCH_INTERVAL_MS = 500;

/**
 * Pins the definitions of every server (tools, prompts, resource templates) and holds back each
 * one whose fingerprint differs from its pin, or that has none on a server already pinned: such
 * a definition is left out of what it screens until an operator approves it. The first
 * definitions of a server are pinned as they come (trust on first use) unless that is turned
 * off (a reviewed pin file). In `warn` mode a change is reported and served.
 */
export class PinGuard {
  readonly file: string;
  readonly #options: PinGuardOptions;
  #content: PinFileContent;
  /** What this process holds back, per server, by pin key. */
  readonly #held = new Map<string, Map<string, Quarantined>>();
  /** Pins reported as no longer listed (once each). */
  readonly #reportedMissing = new Set<string>();
  /**
   * The pinned view each definition had last (a copy parsed from its canonical JSON, so that no
   * caller's later edit of the definition reaches it), with its fingerprint: a server re-lists
   * the same definitions, so an unchanged one costs a structural comparison that stops at the
   * first difference, not a serialisation, a canonicalization and a hash. Any difference is
   * fingerprinted canonically.
   */
  readonly #lastSeen = new Map<string, LastSeen>();
  /**
   * The last list of each server and kind (`<kind>\u0000<server>`) when every definition in it
   * matched its pin, with the {@link #generation} it was screened at: the same list again, at the
   * same generation, is served whole after the structural comparison of each definition, without
   * the bookkeeping a list that changes something needs (its outcome would be the same).
   */
  readonly #cleanLists = new Map<string, { generation: number; names: string[]; seen: LastSeen[] }>();
  /** Counts every change of the pins, the pending definitions or what is held back. */
  #generation = 0;
  /** The tool names each server listed last, for the shadowing detector. */
  readonly #toolNames = new Map<string, Set<string>>();
  /** Edits made here, written to the file in order (each under the lock, over a fresh read). */
  #writes: Promise<void> = Promise.resolve();
  #watcher: StatWatcher | undefined;
  readonly #changeListeners = new Set<(change: PinChange) => void>();

  constructor(options: PinGuardOptions) {
    this.#options = options;
    this.file = options.file;
    this.#content = readPinFile(options.file);
    if (options.watch !== false) {
      this.#watcher = watchFile(options.file, { interval: WATCH_INTERVAL_MS, persistent: false }, () =>
        this.#reload(),
      );
    }
  }

  /** The mode of `server`: its own, else the global one, else `enforce`. */
  modeOf(server: string): PinMode {
    return this.#serverConfig(server)?.mode ?? this.#options.mode ?? 'enforce';
  }

  /**
   * The definitions of `server` that may be served: those matching their pins, and on first use
   * all of them (pinned now). Each other one is recorded as pending, reported with the approve
   * command, and left out in `enforce` mode. Definitions without a string name pass untouched
   * (the size screen drops them).
   */
  screen<T>(server: string, kind: PinnedKind, definitions: readonly T[]): T[] {
    const mode = this.modeOf(server);
    if (mode === 'off') return [...definitions];
    const config = this.#serverConfig(server);
    const ignore = config?.ignore ?? [];
    const listKey = `${kind}\u0000${server}`;
    const clean = this.#cleanLists.get(listKey);
    if (
      clean !== undefined &&
      clean.generation === this.#generation &&
      clean.names.length === definitions.length
    ) {
      let same = true;
      for (let i = 0; i < definitions.length && same; i++)
        same =
          nameOf(definitions[i]) === clean.names[i] &&
          sameView(kind, definitions[i] as object, ignore, clean.seen[i]!.view);
      if (same) return [...definitions];
    }
    const record = this.#content.servers[server] ?? emptyServerPins();
    const firstUse =
      !record.seen.includes(kind) && (config?.trustOnFirstUse ?? this.#options.trustOnFirstUse ?? true);
    const held = this.#heldOf(server);
    const kept: T[] = [];
    const listed = new Set<string>();
    const now = new Date().toISOString();
    const pins: Record<string, { fingerprint: string; definition: Record<string, unknown> }> = {};
    const pending: Record<string, PendingEntry> = {};
    const settled: string[] = [];
    // Whether every definition has a name and matches its pin (the list may then be remembered).
    let matched = true;
    const names: string[] = [];
    const seenViews: LastSeen[] = [];
    for (const definition of definitions) {
      const name = nameOf(definition);
      if (name === undefined) {
        matched = false;
        kept.push(definition);
        continue;
      }
      const key = pinKey(kind, name);
      listed.add(key);
      const seen = this.#fingerprint(server, key, kind, definition as object, ignore);
      const fingerprint = seen.fingerprint;
      const pin = record.pins[key];
      names.push(name);
      seenViews.push(seen);
      if (pin?.fingerprint !== fingerprint) matched = false;
      // Only a definition not seen before is scanned: an unchanged list costs a hash per definition.
      const suspect =
        pin?.fingerprint !== fingerprint && record.pending[key]?.fingerprint !== fingerprint
          ? this.#scan(server, kind, name, definition as object)
          : false;
      if (pin?.fingerprint === fingerprint || (pin === undefined && firstUse && !suspect)) {
        if (pin === undefined)
          pins[key] = { fingerprint, definition: pinnedView(kind, definition as object) };
        if (held.delete(key) || record.pending[key] !== undefined) settled.push(key);
        kept.push(definition);
        continue;
      }
      const change =
        pin === undefined ? 'new' : describeChange(kind, pin.definition, definition as object, ignore);
      if (record.pending[key]?.fingerprint !== fingerprint)
        pending[key] = { fingerprint, definition: pinnedView(kind, definition as object), seenAt: now };
      const already = held.get(key)?.fingerprint === fingerprint;
      held.set(key, { server, kind, name, change, fingerprint });
      if (!already) {
        const what = pin === undefined ? `${kind} "${name}" is new` : `${kind} "${name}" changed (${change})`;
        this.#options.warn(
          `${what} on "${server}" since its definitions were pinned; ${
            mode === 'enforce' ? 'it is quarantined (not served)' : 'served anyway (pins mode warn)'
          } until approved: mcptools pins diff ${server}, then mcptools pins approve ${server}/${name}`,
          server,
        );
      }
      if (mode === 'warn') kept.push(definition);
    }
    if (kind === 'tool')
      this.#toolNames.set(server, new Set([...listed].map((key) => splitPinKey(key).name)));
    for (const key of Object.keys(record.pins)) {
      if (!key.startsWith(`${kind}:`) || listed.has(key)) continue;
      const reported = `${server}\u0000${key}`;
      if (this.#reportedMissing.has(reported)) continue;
      this.#reportedMissing.add(reported);
      this.#options.warn(
        `pinned ${kind} "${splitPinKey(key).name}" of "${server}" is no longer listed`,
        server,
      );
    }
    const firstSeen = !record.seen.includes(kind);
    if (firstSeen || Object.keys(pins).length > 0 || Object.keys(pending).length > 0 || settled.length > 0) {
      this.#apply(server, (target) => {
        if (!target.seen.includes(kind)) target.seen.push(kind);
        for (const [key, pin] of Object.entries(pins)) {
          // A pin another process wrote meanwhile wins over this first use.
          target.pins[key] ??= { ...pin, pinnedAt: now };
        }
        for (const [key, entry] of Object.entries(pending)) target.pending[key] = entry;
        for (const key of settled) delete target.pending[key];
      });
      const pinned = Object.entries(pins).map(([key, pin]) => ({ key, entry: { ...pin, pinnedAt: now } }));
      if (pinned.length > 0 || firstSeen)
        this.#tell({ type: 'pinned', server, pins: pinned, seen: firstSeen ? [kind] : [], approval: false });
    }
    if (matched) this.#cleanLists.set(listKey, { generation: this.#generation, names, seen: seenViews });
    else this.#cleanLists.delete(listKey);
    return kept;
  }

  /** The refusal the model reads for a held-back definition (never the approve command), or `undefined`. */
  refusal(server: string, kind: PinnedKind, name: string): string | undefined {
    const held = this.#held.get(server)?.get(pinKey(kind, name));
    if (held === undefined || this.modeOf(server) !== 'enforce') return undefined;
    const what = held.change === 'new' ? 'it is new since' : `its ${held.change} changed since`;
    return `${kind} "${name}" of server "${server}" is quarantined: ${what} the server's definitions were reviewed; an operator must approve it before it is served`;
  }

  /** Whether definitions of `kind` of `server` are held back when they differ: `enforce` mode, and the kind listed before. */
  enforces(server: string, kind: PinnedKind): boolean {
    return this.modeOf(server) === 'enforce' && (this.#content.servers[server]?.seen.includes(kind) ?? false);
  }

  /**
   * The resource templates of `server` waiting for an operator's approval (recorded as pending,
   * by this process or another sharing the file), with the URI template each one lists now.
   */
  pendingTemplates(server: string): { name: string; uriTemplate: string }[] {
    if (this.modeOf(server) !== 'enforce') return [];
    const pending = this.#content.servers[server]?.pending ?? {};
    const templates: { name: string; uriTemplate: string }[] = [];
    for (const [key, entry] of Object.entries(pending)) {
      const { kind, name } = splitPinKey(key);
      const uriTemplate = entry.definition.uriTemplate;
      if (kind === 'template' && typeof uriTemplate === 'string') templates.push({ name, uriTemplate });
    }
    return templates;
  }

  /** What this process holds back now (of one server, or all). */
  quarantined(server?: string): Quarantined[] {
    const servers = server === undefined ? [...this.#held.keys()] : [server];
    return servers.flatMap((name) => [...(this.#held.get(name)?.values() ?? [])]);
  }

  /**
   * Approves the pending definitions of `server` (all, or those named `name`, `<kind>:<name>`
   * for one kind): they become its pins, in the file and here; definitions this guard held back
   * are served from the next list on ({@link PinGuardOptions.approved}). Resolves the approved keys.
   */
  async approve(server: string, name?: string): Promise<string[]> {
    // What this guard recorded as pending must be in the file before it is approved there.
    await this.#writes;
    const approved = await approvePending(this.file, server, name);
    this.#reload();
    return approved;
  }

  /**
   * Withholds trust on first use from `server` (one an agent added): every definition it lists
   * waits for an operator's approval, as a new one on a server already pinned does. Pins left
   * from an earlier server of that name are dropped, here at once and in the file, which other
   * processes sharing it read before they connect the server ({@link refresh}).
   */
  distrust(server: string): Promise<void> {
    this.#apply(server, (record) => {
      record.pins = {};
      record.pending = {};
      record.seen = ['tool', 'prompt', 'template'];
    });
    this.#tell({ type: 'distrusted', server });
    return this.#writes;
  }

  /**
   * Calls `listener` with each change of the pins this process makes: definitions pinned on first
   * use, kinds seen first, definitions this guard held back that an approval released (made here,
   * by `mcptools pins approve` on this file, or by the library), a server distrusted; never with
   * pins taken from a cluster ({@link replace}). Returns a function that stops it.
   */
  onChange(listener: (change: PinChange) => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  /** The pins and kinds seen of `server` here (copies), or `undefined` when it has none. */
  pinsOf(server: string): ClusterPins | undefined {
    const record = this.#content.servers[server];
    if (record === undefined) return undefined;
    return { pins: { ...record.pins }, seen: [...record.seen] };
  }

  /** The servers this process has pins or pending definitions of. */
  servers(): string[] {
    return Object.keys(this.#content.servers);
  }

  /**
   * Makes what a cluster pins for `server` this process's pins of it (here and in the file): a
   * pin it lacks is dropped, a different one replaced, and the pending definitions it now pins
   * are settled. What it releases is served, and a definition served under a pin it replaced is
   * screened again ({@link PinGuardOptions.approved}: the server is listed again). Resolves the
   * keys whose pin changed (none: nothing written). The caller vouches for `cluster` (the cluster
   * seals it with its key).
   */
  async replace(server: string, cluster: ClusterPins): Promise<string[]> {
    const record = this.#content.servers[server] ?? emptyServerPins();
    const changed = new Set<string>();
    for (const [key, pin] of Object.entries(cluster.pins))
      if (record.pins[key]?.fingerprint !== pin.fingerprint) changed.add(key);
    for (const key of Object.keys(record.pins)) if (cluster.pins[key] === undefined) changed.add(key);
    const seen = [...new Set(cluster.seen)].sort();
    const seenChanged = seen.join() !== [...record.seen].sort().join();
    if (changed.size === 0 && !seenChanged) return [];
    this.#apply(server, (target) => {
      target.pins = structuredClone(cluster.pins);
      target.seen = [...seen];
      for (const [key, entry] of Object.entries(target.pending))
        if (target.pins[key]?.fingerprint === entry.fingerprint) delete target.pending[key];
    });
    const held = this.#held.get(server);
    for (const key of changed)
      if (held?.get(key)?.fingerprint === cluster.pins[key]?.fingerprint) held?.delete(key);
    await this.#writes;
    if (changed.size > 0) this.#options.approved?.(server);
    return [...changed];
  }

  /** Reads the pin file again now (before servers connect after a reload), not at the next poll. */
  refresh(): void {
    this.#reload();
  }

  /** Waits for the pins and pending definitions recorded so far to be written. */
  flush(): Promise<void> {
    return this.#writes;
  }

  /** Stops following the file; pending writes still complete. */
  close(): Promise<void> {
    if (this.#watcher) unwatchFile(this.file);
    this.#watcher = undefined;
    return this.#writes;
  }

  #fingerprint(
    server: string,
    key: string,
    kind: PinnedKind,
    definition: object,
    ignore: readonly string[],
  ): LastSeen {
    const cacheKey = `${server}\u0000${key}`;
    const last = this.#lastSeen.get(cacheKey);
    if (last !== undefined && sameView(kind, definition, ignore, last.view)) return last;
    const canonical = canonicalView(pinnedView(kind, definition, ignore));
    const seen = { view: JSON.parse(canonical), fingerprint: fingerprintOfCanonical(canonical) };
    this.#lastSeen.set(cacheKey, seen);
    return seen;
  }

  /**
   * Scans a definition not seen before for poisoning (`pins.scan`, default `warn`): each finding
   * is reported as its detector and place. `true` when it must not be trusted on first use
   * (`quarantine` and a high-severity finding).
   */
  #scan(server: string, kind: PinnedKind, name: string, definition: object): boolean {
    const scan = this.#options.scan ?? 'warn';
    if (scan === 'off') return false;
    const others = new Set<string>();
    for (const [other, names] of this.#toolNames)
      if (other !== server) for (const tool of names) others.add(tool);
    const findings = scanDefinition(kind, definition, others);
    if (findings.length === 0) return false;
    const seen = new Set(findings.map(describeFinding));
    this.#options.warn(`${kind} "${name}" of "${server}" may be poisoned: ${[...seen].join(', ')}`, server);
    return scan === 'quarantine' && findings.some((finding) => finding.severity === 'high');
  }

  #tell(change: PinChange): void {
    for (const listener of this.#changeListeners) listener(change);
  }

  #serverConfig(server: string) {
    const servers = this.#options.servers;
    return servers && Object.hasOwn(servers, server) ? servers[server] : undefined;
  }

  #heldOf(server: string): Map<string, Quarantined> {
    let held = this.#held.get(server);
    if (held === undefined) {
      held = new Map();
      this.#held.set(server, held);
    }
    return held;
  }

  /** Edits the record of `server` here at once and in the file in order. */
  #apply(server: string, edit: (record: PinFileContent['servers'][string]) => void): void {
    this.#generation++;
    edit(recordOf(this.#content, server));
    this.#writes = this.#writes
      .then(() =>
        updatePinFile(this.file, (content) => {
          edit(recordOf(content, server));
        }),
      )
      .then(
        () => undefined,
        (error: unknown) => {
          this.#options.warn(
            `the pin file ${this.file} could not be written: ${error instanceof Error ? error.message : String(error)}`,
          );
        },
      );
  }

  /** Reads the file again; what it now pins as held back here is released. */
  #reload(): void {
    let content: PinFileContent;
    try {
      content = readPinFile(this.file);
    } catch (error) {
      this.#options.warn(error instanceof Error ? error.message : String(error));
      return;
    }
    // Edits of this process not written yet stay in force until they are.
    this.#content = content;
    this.#generation++;
    for (const [server, held] of this.#held) {
      let released = false;
      for (const [key, entry] of held) {
        const pin = content.servers[server]?.pins[key];
        if (pin?.fingerprint !== entry.fingerprint) continue;
        held.delete(key);
        released = true;
        this.#tell({ type: 'pinned', server, pins: [{ key, entry: pin }], seen: [], approval: true });
      }
      if (released) this.#options.approved?.(server);
    }
  }
}

/**
 * Moves pending definitions of `server` to its pins in the pin file at `file` (all, or the
 * ones named `name` or `<kind>:<name>`). Resolves the approved keys (none: nothing pending).
 */
export async function approvePending(file: string, server: string, name?: string): Promise<string[]> {
  const approved: string[] = [];
  await updatePinFile(file, (content) => {
    const record = content.servers[server];
    if (record === undefined) return;
    const now = new Date().toISOString();
    for (const [key, entry] of Object.entries(record.pending)) {
      if (name !== undefined && key !== name && splitPinKey(key).name !== name) continue;
      record.pins[key] = { fingerprint: entry.fingerprint, definition: entry.definition, pinnedAt: now };
      delete record.pending[key];
      approved.push(key);
    }
  });
  return approved;
}

/** "description, inputSchema" (with "whitespace only" when nothing else changed). */
function describeChange(
  kind: PinnedKind,
  before: Record<string, unknown>,
  after: object,
  ignore: readonly string[],
): string {
  const { fields, cosmetic } = changedFields(kind, before, pinnedView(kind, after, ignore));
  // The stored view keeps ignored fields too; they never count as a change.
  const counted = fields.filter((field) => !ignore.includes(field));
  if (counted.length === 0) return 'definition';
  return `${counted.join(', ')}${cosmetic ? ', whitespace only' : ''}`;
}

/** The record of `server` in `content`, added when it has none. */
function recordOf(content: PinFileContent, server: string): PinFileContent['servers'][string] {
  const record = content.servers[server] ?? emptyServerPins();
  content.servers[server] = record;
  return record;
}

function nameOf(definition: unknown): string | undefined {
  const name = (definition as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}
