import { closeSync, fstatSync, ftruncateSync, readSync, writeSync } from 'node:fs';
import type { Stream } from 'node:stream';
import type { SecretRedactor } from '../config/secret-redactor.js';
import { openUnlinkedFile } from './open-unlinked-file.js';

const MAX_LINES = 20;
const MAX_CHARS = 4000;
/** How much of the end of the stderr text is looked at: twice what a message may show. */
const WINDOW_CHARS = 2 * MAX_CHARS;
const WINDOW_BYTES = 8192;
/** A stderr file larger than this is emptied (its last lines kept) at the next check. */
export const STDERR_FILE_CAP_BYTES = 1024 * 1024;
/** How often the stderr files are checked against the cap: one timer for all of them. */
export const STDERR_FILE_CHECK_MS = 1000;

/**
 * Keeps the last lines a stdio server wrote to stderr, for error messages. {@link text}, given
 * the connection's redactor, replaces every configured secret (env values, header values,
 * tokens) by `***` before the text leaves.
 *
 * Where it can (not on Windows), the child writes its stderr straight into an unlinked
 * temporary file ({@link childStderr}) that this process reads only when a message asks for
 * the tail: no pipe, stream or read on the event loop. One timer for all tails empties a file
 * past {@link STDERR_FILE_CAP_BYTES}, keeping its last lines. Elsewhere the child's stderr
 * pipe is read into memory ({@link attach}). {@link close} closes the file.
 */
export class StderrTail {
  /** Tails with an open file, for the cap check. */
  static readonly #files = new Set<StderrTail>();
  static #timer: NodeJS.Timeout | undefined;

  /**
   * The last text read from a pipe, or kept from a file before it was emptied; when its
   * beginning was cut, it starts at a line's start (see {@link keptEnd}).
   */
  #kept = '';
  /** The stderr file; `-1` once closed. */
  #fd: number | undefined;

  /**
   * What a child's stderr is spawned with: the descriptor of this tail's file (opened at the
   * first call; every child of one attempt writes into it), `'pipe'` where no such file can
   * be opened (then {@link attach} the child's stderr), or `'ignore'` once closed.
   */
  childStderr(): number | 'pipe' | 'ignore' {
    if (this.#fd === -1) return 'ignore';
    if (this.#fd === undefined) {
      this.#fd = openUnlinkedFile();
      if (this.#fd === undefined) return 'pipe';
      StderrTail.#watch(this);
    }
    return this.#fd;
  }

  /** Starts collecting from `stream`; the stream is drained so the child never blocks on a full pipe. */
  attach(stream: Stream | null): void {
    stream?.on('data', (chunk: Buffer | string) => this.push(String(chunk)));
  }

  /** Adds raw stderr text. */
  push(text: string): void {
    this.#kept = keptEnd(this.#kept + text, false);
  }

  /**
   * Adds a line of this process's own about the server (a box's limit it hit) after what the
   * server wrote so far: into the file the child appends to, so the order holds.
   */
  note(line: string): void {
    const fd = this.#fd;
    if (fd === undefined || fd === -1) {
      this.push(line);
      return;
    }
    try {
      writeSync(fd, line);
    } catch {
      this.push(line);
    }
  }

  /** The last lines, with `redactor`'s secrets hidden, or `''` when the server wrote nothing. */
  text(redactor?: SecretRedactor): string {
    const lines = lastLines(this.#end());
    return redactor ? redactor.text(lines) : lines;
  }

  /** Closes the file (idempotent); the child, if still running, keeps writing to its own copy. */
  close(): void {
    const fd = this.#fd;
    this.#fd = -1;
    if (fd === undefined || fd === -1) return;
    StderrTail.#unwatch(this);
    try {
      closeSync(fd);
    } catch {}
  }

  /**
   * The end of everything the server wrote, from a line's start: what is kept in memory
   * followed by the file's end.
   */
  #end(): string {
    const fd = this.#fd;
    if (fd === undefined || fd === -1) return this.#kept;
    try {
      const size = fstatSync(fd).size;
      const start = Math.max(0, size - WINDOW_BYTES);
      const buffer = Buffer.allocUnsafe(size - start);
      const read = readSync(fd, buffer, 0, buffer.length, start);
      const text = buffer.toString('utf8', 0, read);
      return start > 0 ? keptEnd(text, true) : this.#kept + text;
    } catch {
      return this.#kept;
    }
  }

  /** Past the cap, keeps the file's end in memory and empties the file (the child's appends go on at 0). */
  #bound(fd: number): void {
    try {
      if (fstatSync(fd).size <= STDERR_FILE_CAP_BYTES) return;
      this.#kept = keptEnd(this.#end(), false);
      ftruncateSync(fd, 0);
    } catch {}
  }

  static #watch(tail: StderrTail): void {
    StderrTail.#files.add(tail);
    if (StderrTail.#timer !== undefined) return;
    StderrTail.#timer = setInterval(() => {
      for (const file of StderrTail.#files) if (file.#fd !== undefined) file.#bound(file.#fd);
    }, STDERR_FILE_CHECK_MS);
    StderrTail.#timer.unref();
  }

  static #unwatch(tail: StderrTail): void {
    StderrTail.#files.delete(tail);
    if (StderrTail.#files.size > 0 || StderrTail.#timer === undefined) return;
    clearInterval(StderrTail.#timer);
    StderrTail.#timer = undefined;
  }
}

/**
 * What is kept of `text`: its last {@link WINDOW_CHARS} characters. When its beginning is cut
 * (`cut`, or longer than the window), the first line is dropped as the end of a line whose start
 * was not kept, unless it is the only one.
 */
function keptEnd(text: string, cut: boolean): string {
  if (!cut && text.length <= WINDOW_CHARS) return text;
  const end = text.slice(-WINDOW_CHARS);
  const newline = end.indexOf('\n');
  return newline === -1 ? end : end.slice(newline + 1);
}

/**
 * The last {@link MAX_LINES} non-blank lines of `text`, at most {@link MAX_CHARS} characters
 * (cut at the front, marked `…`).
 */
function lastLines(text: string): string {
  const lines = text.split(/\r?\n/);
  const kept: string[] = [];
  for (let index = lines.length - 1; index >= 0 && kept.length < MAX_LINES; index--) {
    const line = lines[index]!;
    if (line.trim() !== '') kept.push(line);
  }
  const joined = kept.reverse().join('\n');
  return joined.length > MAX_CHARS ? `…${joined.slice(-MAX_CHARS)}` : joined;
}
