import { StringDecoder } from 'node:string_decoder';

/**
 * What {@link SseCollapser.push} concluded: `more` (nothing to deliver yet), `answered` (the
 * response to the request has arrived, with every message before it; nothing after it so far)
 * or `stream` (the response must be streamed as it is: a message waits with no response yet, a
 * field the SDK's own parser handles (`id`, `retry`, a lone CR), a message that is not one JSON
 * object, more than `maxBytes`, or bytes after the response).
 */
export type CollapseState = 'more' | 'answered' | 'stream';

/**
 * Reads the Server-Sent Events answer to one POSTed JSON-RPC request and decides whether it can
 * be handed to the SDK as a plain JSON body instead: in the common case the server writes one
 * `message` event (the response, maybe after a few notifications) and ends the stream, and
 * parsing that as JSON costs a fraction of the SDK's two piped web streams. Events are read as
 * the SSE specification says (`data` lines joined, comments skipped, events with no data or of
 * another type ignored, as the SDK ignores them); anything else makes the answer `stream`.
 * The raw bytes are kept so a streamed answer is replayed from its first byte.
 */
export class SseCollapser {
  /** Every byte received, for the replay when the answer is streamed. */
  readonly chunks: Buffer[] = [];
  #bytes = 0;
  readonly #maxBytes: number;
  readonly #decoder = new StringDecoder('utf8');
  /** Text after the last whole line; `#scanned` of it is known to hold no line feed. */
  #rest = '';
  #scanned = 0;
  #data: string[] = [];
  #type = '';
  readonly #texts: string[] = [];
  readonly #values: unknown[] = [];
  #answered = false;
  #state: CollapseState = 'more';

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Feeds the next chunk of the body; returns what is known now. */
  push(chunk: Buffer): CollapseState {
    if (this.#state === 'stream') return 'stream';
    this.chunks.push(chunk);
    this.#bytes += chunk.length;
    if (this.#bytes > this.#maxBytes || this.#answered) return this.#stream();
    const text = this.#rest + this.#decoder.write(chunk);
    let start = 0;
    for (let from = this.#scanned; ; ) {
      const newline = text.indexOf('\n', from);
      if (newline === -1) break;
      const end = newline > start && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
      const line = text.slice(start, end);
      start = newline + 1;
      from = start;
      if (!this.#line(line)) return this.#stream();
    }
    this.#rest = text.slice(start);
    this.#scanned = this.#rest.length;
    if (this.#answered) {
      this.#state = this.#rest.length === 0 ? 'answered' : 'stream';
    } else {
      // A message with no response yet (progress, a server request) is delivered now, streamed.
      this.#state = this.#texts.length > 0 ? 'stream' : 'more';
    }
    return this.#state;
  }

  /** What is known after the chunks fed so far. */
  get state(): CollapseState {
    return this.#state;
  }

  /** The JSON body that stands for the answer: its one message, or all of them as an array. */
  collapsed(): { text: string; value: unknown } {
    if (this.#texts.length === 1) return { text: this.#texts[0] as string, value: this.#values[0] };
    return { text: `[${this.#texts.join(',')}]`, value: this.#values };
  }

  #stream(): CollapseState {
    this.#state = 'stream';
    return 'stream';
  }

  /** Applies one line; `false` when the answer has to be streamed. */
  #line(line: string): boolean {
    if (line.includes('\r')) return false;
    if (line === '') return this.#dispatch();
    if (this.#answered) return false;
    if (line.charCodeAt(0) === 58) return true; // ':' a comment
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#type = value;
    else if (field === 'id' || field === 'retry') return false;
    return true;
  }

  #dispatch(): boolean {
    const data = this.#data;
    const type = this.#type;
    this.#data = [];
    this.#type = '';
    if (data.length === 0 || (type !== '' && type !== 'message')) return true;
    if (this.#answered) return false;
    const text = data.length === 1 ? (data[0] as string) : data.join('\n');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return false;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    this.#texts.push(text);
    this.#values.push(value);
    if ('id' in value && !('method' in value) && ('result' in value || 'error' in value)) {
      this.#answered = true;
    }
    return true;
  }
}
