import type { Stream } from 'node:stream';

const MAX_LINES = 20;
const MAX_CHARS = 4000;

/**
 * Keeps the last lines a stdio server wrote to stderr, for error messages. Every configured
 * secret (env values, header values, tokens) is replaced by `***` before the text leaves.
 */
export class StderrTail {
  #lines: string[] = [];
  #partial = '';
  readonly #secrets: string[];

  constructor(secrets: string[] = []) {
    // Short values would redact ordinary words; longest first so overlaps redact fully.
    this.#secrets = secrets.filter((secret) => secret.length >= 4).sort((a, b) => b.length - a.length);
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
    return redactSecrets(text, this.#secrets);
  }
}

/** Replaces every occurrence of each secret in `text` by `***`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secrets) {
    if (secret.length >= 4) redacted = redacted.split(secret).join('***');
  }
  return redacted;
}
