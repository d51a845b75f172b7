import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ProtocolMode, ServerConfig } from '../config/config-types.js';
import type { ProtocolEra } from './hub-types.js';
import { eraFromSdk } from './sdk-era.js';

/**
 * The era `value` names in the file: `2025` or `2026-07-28`, or the SDK's `legacy` or `modern`
 * that earlier versions wrote; `undefined` for anything else.
 */
function eraIn(value: unknown): ProtocolEra | undefined {
  if (value === '2025' || value === '2026-07-28') return value;
  return value === 'legacy' || value === 'modern' ? eraFromSdk(value) : undefined;
}

interface EraFile {
  version: 1;
  /** Era (`2025` or `2026-07-28`) and last-seen time (epoch ms) by server key. */
  servers: Record<string, { era: ProtocolEra; at: number }>;
}

/** Most servers kept in the file; the least recently seen go first. */
const MAX_ENTRIES = 1000;

/**
 * The file the era of each server is kept in between runs: `$MCPTOOLS_ERA_CACHE` if set
 * (`off` disables it), else `mcptools/eras.json` under `$XDG_CACHE_HOME` (default
 * `~/.cache`). `undefined` when disabled.
 */
export function defaultEraCacheFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.MCPTOOLS_ERA_CACHE;
  if (configured !== undefined && configured !== '') return configured === 'off' ? undefined : configured;
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'mcptools', 'eras.json');
}

/**
 * What identifies a server in the era file: a hash of its command line (command, arguments,
 * working directory) or its URL, and the `protocol` mode it is connected with (what `auto`
 * found says nothing about what `initialize` would find), so that no argument, token or
 * query value is written out.
 */
export function eraKey(config: ServerConfig, mode: ProtocolMode): string {
  const identity =
    config.type === 'stdio'
      ? [mode, 'stdio', config.command, ...(config.args ?? []), config.cwd ?? '']
      : [mode, 'http', config.url];
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32);
}

function parse(text: string): Map<string, { era: ProtocolEra; at: number }> {
  const parsed = JSON.parse(text) as Partial<EraFile>;
  const map = new Map<string, { era: ProtocolEra; at: number }>();
  if (parsed.version !== 1 || typeof parsed.servers !== 'object' || parsed.servers === null) return map;
  for (const [key, entry] of Object.entries(parsed.servers)) {
    const era = eraIn(entry?.era);
    if (era !== undefined && typeof entry.at === 'number') map.set(key, { era, at: entry.at });
  }
  return map;
}

/**
 * The era each server was last connected in, in memory and (unless `file` is `undefined`)
 * in a small JSON file, so the next run starts every server straight in its era. The file is
 * read once, merged with other processes' changes and replaced atomically on each write; a
 * missing or damaged file counts as empty, and a failed write is ignored (it is only a cache).
 */
export class EraMemory {
  readonly file: string | undefined;
  readonly #eras = new Map<string, ProtocolEra>();
  #loaded: Promise<void> | undefined;
  #writing: Promise<void> = Promise.resolve();
  readonly #pending = new Map<string, ProtocolEra | undefined>();

  constructor(file: string | undefined) {
    this.file = file;
  }

  /** The remembered era of the server with `key`, if any. */
  async get(key: string): Promise<ProtocolEra | undefined> {
    await this.#load();
    return this.#eras.get(key);
  }

  /** Remembers `era` for `key` (written out in the background when it changed). */
  set(key: string, era: ProtocolEra): void {
    if (this.#eras.get(key) === era) return;
    this.#eras.set(key, era);
    this.#schedule(key, era);
  }

  /** Forgets the era of `key`: the next connect negotiates afresh. */
  forget(key: string): void {
    if (!this.#eras.delete(key)) return;
    this.#schedule(key, undefined);
  }

  /** Resolves when every change so far is written. */
  flush(): Promise<void> {
    return this.#writing;
  }

  #load(): Promise<void> {
    this.#loaded ??= this.#read().then((map) => {
      for (const [key, entry] of map) if (!this.#eras.has(key)) this.#eras.set(key, entry.era);
    });
    return this.#loaded;
  }

  async #read(): Promise<Map<string, { era: ProtocolEra; at: number }>> {
    if (this.file === undefined) return new Map();
    try {
      return parse(await readFile(this.file, 'utf8'));
    } catch {
      return new Map();
    }
  }

  #schedule(key: string, era: ProtocolEra | undefined): void {
    if (this.file === undefined) return;
    this.#pending.set(key, era);
    this.#writing = this.#writing.then(() => this.#write()).catch(() => undefined);
  }

  async #write(): Promise<void> {
    const file = this.file;
    if (file === undefined || this.#pending.size === 0) return;
    const changes = new Map(this.#pending);
    this.#pending.clear();
    const map = await this.#read();
    const now = Date.now();
    for (const [key, era] of changes) {
      if (era === undefined) map.delete(key);
      else map.set(key, { era, at: now });
    }
    const entries = [...map].sort((a, b) => b[1].at - a[1].at).slice(0, MAX_ENTRIES);
    const content: EraFile = { version: 1, servers: Object.fromEntries(entries) };
    await mkdir(dirname(file), { recursive: true });
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, `${JSON.stringify(content)}\n`);
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}

const shared = new Map<string, EraMemory>();

/** One {@link EraMemory} per file in a process, so every hub shares what the others learned. */
export function eraMemoryFor(file: string | undefined): EraMemory {
  const id = file ?? '';
  let memory = shared.get(id);
  if (memory === undefined) {
    memory = new EraMemory(file);
    shared.set(id, memory);
  }
  return memory;
}
