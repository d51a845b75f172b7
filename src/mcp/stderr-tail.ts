import type { Stream } from 'node:stream';
import type { SecretRedactor } from '../config/secret-redactor.js';

const MAX_LINES = 20;
const MAX_CHARS = 4000;

/**
 * Keeps the last lines a stdio server wrote to stderr, for error messages. Every configured
 * secret (env values, header values, tokens) is replaced by `***` before the text leaves.
 */
export class StderrTail {
  #lines: string[] = [];
  #partial = '';
  readonly #redactor: SecretRedactor | undefined;

  constructor(redactor?: SecretRedactor) {
    this.#redactor = redactor;
  }

  /** Starts collecting from `stream`; the stream is drained so the child never blocks on a full pipe. */
  attach(stream: Stream | null): void {
    stream?.on('data', (chunk: Buffer | string) => this.push(String(chunk)));
  }

  /** Adds raw stderr text. */
  push(text: string): void {
    const parts = (this.#partial + text).split(/\r?\n/);
    this.#partial = (parts.pop() ?? '').slice(-MAX_CHARS);
    for (const line of parts) if (line.trim() !== '') this.#lines.push(line);
    if (this.#lines.length > MAX_LINES) this.#lines.splice(0, this.#lines.length - MAX_LINES);
  }

  /** The last lines (redacted), or `''` when the server wrote nothing. */
  text(): string {
    const lines = this.#partial.trim() === '' ? this.#lines : [...this.#lines, this.#partial];
    let text = lines.join('\n');
    if (text.length > MAX_CHARS) text = `…${text.slice(-MAX_CHARS)}`;
    return this.#redactor ? this.#redactor.text(text) : text;
  }
}
