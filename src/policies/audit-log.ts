import * as crypto from 'node:crypto';
import { type FileHandle, mkdir, open, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AuditLogConfig } from '../config/policies-schema.js';
import { canonicalJson } from '../json/canonical-json.js';
import type { AfterToolCallEvent } from '../pipeline/tool-call-hooks.js';

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_KEEP = 5;
/** How long a record may wait for others to be written with it. */
const FLUSH_DELAY_MS = 50;

/**
 * SHA-256 of `key` followed by `text`: a secret prefix, so that a low-entropy argument cannot
 * be guessed back from its hash (length extension gives nothing here: nobody checks these
 * hashes as signatures). The one-shot `crypto.hash` (Node ≥ 20.12) costs a fraction of an HMAC.
 */
function keyedHash(key: string, text: string): string {
  const oneShot = (crypto as { hash?: (algorithm: string, data: string) => string }).hash;
  return oneShot
    ? oneShot('sha256', key + text)
    : crypto
        .createHash('sha256')
        .update(key + text)
        .digest('hex');
}

/** One line of the audit log: who called what, when, how it ended and why, never argument values. */
export interface AuditRecord {
  time: string;
  principal?: string;
  tool: string;
  originalName?: string;
  server?: string;
  toolCallId?: string;
  durationMs: number;
  outcome: AfterToolCallEvent['outcome'];
  decisions: Array<{ by: string; decision: string; reason?: string }>;
  /** SHA-256 of a per-process secret and the canonical JSON of the arguments (a low-entropy value cannot be guessed back). */
  argumentsHash: string;
  /** This record continues a call already recorded (the retry of a relayed `input_required` round). */
  continuation?: true;
}

/**
 * The audit log: one JSON line per call, appended in the background in batches (a call never
 * waits for the disk; a record is on disk within about 50 ms, or at `flush`/`close`), rotated when the file would pass `maxBytes` (`file.1` … `file.<keep>`). Written
 * with mode 0600. A write that fails is reported once through `onError`, never thrown.
 */
export class AuditLog {
  readonly #file: string;
  readonly #maxBytes: number;
  readonly #keep: number;
  readonly #key: string;
  readonly #onError: (message: string, error: unknown) => void;
  readonly #ownReasons: ReadonlySet<string>;
  #pending: string[] = [];
  #writing: Promise<void> | undefined;
  #handle: FileHandle | undefined;
  #size = 0;
  #failed = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    config: AuditLogConfig & { hashKey?: string },
    options: { onError?: (message: string, error: unknown) => void; ownReasons?: ReadonlySet<string> } = {},
  ) {
    this.#file = config.file;
    this.#maxBytes = config.maxBytes ?? DEFAULT_MAX_BYTES;
    this.#keep = config.keep ?? DEFAULT_KEEP;
    this.#key = config.hashKey ?? crypto.randomBytes(32).toString('hex');
    this.#onError = options.onError ?? (() => undefined);
    this.#ownReasons = options.ownReasons ?? new Set();
  }

  /** The record of one call (reasons only from the configured policies: a hook's text may quote values). */
  recordOf(event: AfterToolCallEvent): AuditRecord {
    return {
      time: new Date(event.startedAt).toISOString(),
      ...(event.principal === undefined ? {} : { principal: event.principal }),
      tool: event.toolName,
      ...(event.originalName === undefined ? {} : { originalName: event.originalName }),
      ...(event.server === undefined ? {} : { server: event.server }),
      ...(event.toolCallId === undefined ? {} : { toolCallId: event.toolCallId }),
      durationMs: event.durationMs,
      outcome: event.outcome,
      decisions: event.decisions.map(({ by, decision, reason }) =>
        reason !== undefined && this.#ownReasons.has(by) ? { by, decision, reason } : { by, decision },
      ),
      argumentsHash: keyedHash(this.#key, canonicalJson(event.params)),
      ...(event.continuation ? { continuation: true as const } : {}),
    };
  }

  /**
   * Queues the record of `event`; returns at once. Lines are written together, at most
   * {@link FLUSH_DELAY_MS} after the first of them (one write for many calls, not one each).
   */
  write(event: AfterToolCallEvent): void {
    this.#pending.push(`${JSON.stringify(this.recordOf(event))}\n`);
    if (this.#writing === undefined && this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#writing ??= this.#drain();
      }, FLUSH_DELAY_MS);
      this.#timer.unref();
    }
  }

  /** Resolves once every queued line is on disk. */
  async flush(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#writing ??= this.#drain();
    }
    while (this.#writing) await this.#writing;
  }

  /** Flushes and closes the file. */
  async close(): Promise<void> {
    await this.flush();
    await this.#handle?.close().catch(() => undefined);
    this.#handle = undefined;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        const lines = this.#pending;
        this.#pending = [];
        await this.#append(lines);
      }
    } catch (error) {
      if (!this.#failed)
        this.#onError(
          `audit log ${this.#file}: ${error instanceof Error ? error.message : String(error)}`,
          error,
        );
      this.#failed = true;
    } finally {
      this.#writing = undefined;
      if (this.#pending.length > 0) this.#writing = this.#drain();
    }
  }

  /** Writes `lines` in as few writes as the size limit allows, rotating between them. */
  async #append(lines: string[]): Promise<void> {
    if (this.#handle === undefined) await this.#open();
    let batch = '';
    let batchBytes = 0;
    for (const line of lines) {
      const bytes = Buffer.byteLength(line);
      if (this.#size + batchBytes > 0 && this.#size + batchBytes + bytes > this.#maxBytes) {
        if (batch !== '') await this.#handle!.write(batch);
        this.#size += batchBytes;
        batch = '';
        batchBytes = 0;
        await this.#rotate();
      }
      batch += line;
      batchBytes += bytes;
    }
    if (batch !== '') await this.#handle!.write(batch);
    this.#size += batchBytes;
  }

  async #open(): Promise<void> {
    await mkdir(dirname(this.#file), { recursive: true });
    this.#handle = await open(this.#file, 'a', 0o600);
    this.#size = (await stat(this.#file)).size;
  }

  async #rotate(): Promise<void> {
    await this.#handle?.close();
    this.#handle = undefined;
    for (let index = this.#keep - 1; index >= 1; index--) {
      await rename(`${this.#file}.${index}`, `${this.#file}.${index + 1}`).catch(() => undefined);
    }
    await rename(this.#file, `${this.#file}.1`);
    await this.#open();
  }
}
