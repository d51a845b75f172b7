import { StringDecoder } from 'node:string_decoder';
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';

/**
 * What {@link SseCollapser.push} concluded: `more` (nothing to deliver yet), `answered` (the
 * response to the request has arrived, with every message before it; nothing after it so far)
 * or `stream` (the response must be streamed as it is: a message waits with no response yet, an
 * event the SDK does more with (`id`, `retry`), a field the parser reports as an error, a
 * message that is not one JSON object, more than `maxBytes`, or bytes after the response).
 */
export type CollapseState = 'more' | 'answered' | 'stream';

/**
 * Reads the Server-Sent Events answer to one POSTed JSON-RPC request and decides whether it can
 * be handed to the SDK as a plain JSON body instead: in the common case the server writes one
 * `message` event (the response, maybe after a few notifications) and ends the stream, and
 * parsing that as JSON costs a fraction of the SDK's two piped web streams. Events are read by
 * `eventsource-parser`, the parser the SDK itself reads them with (events of another type are
 * ignored, as the SDK ignores them); anything else makes the answer `stream`. The raw bytes are
 * kept so a streamed answer is replayed from its first byte.
 */
export class SseCollapser {
  /** Every byte received, for the replay when the answer is streamed. */
  readonly chunks: Buffer[] = [];
  #bytes = 0;
  readonly #maxBytes: number;
  readonly #decoder = new StringDecoder('utf8');
  readonly #parser: EventSourceParser;
  readonly #texts: string[] = [];
  readonly #values: unknown[] = [];
  #answered = false;
  #state: CollapseState = 'more';

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
    const stream = () => {
      this.#state = 'stream';
    };
    this.#parser = createParser({ onEvent: (event) => this.#event(event), onRetry: stream, onError: stream });
  }

  /** Feeds the next chunk of the body; returns what is known now. */
  push(chunk: Buffer): CollapseState {
    if (this.#state === 'stream') return 'stream';
    this.chunks.push(chunk);
    this.#bytes += chunk.length;
    if (this.#bytes > this.#maxBytes || this.#answered) return this.#streamed();
    const text = this.#decoder.write(chunk);
    this.#parser.feed(text);
    if ((this.#state as CollapseState) === 'stream') return this.#streamed();
    // Nothing may wait after the response: the chunk ends on a line feed (no partial line).
    if (this.#answered && text.charCodeAt(text.length - 1) !== 10) return this.#streamed();
    // A message with no response yet (progress, a server request) is delivered now, streamed.
    if (!this.#answered && this.#texts.length > 0) return this.#streamed();
    this.#state = this.#answered ? 'answered' : 'more';
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

  /**
   * `stream`, with what was parsed let go: the parser's unfinished line (up to `maxBytes` of
   * text when one event is too big) and the messages read, which a streamed answer never uses.
   */
  #streamed(): 'stream' {
    this.#state = 'stream';
    this.#parser.reset();
    this.#texts.length = 0;
    this.#values.length = 0;
    return 'stream';
  }

  #event({ id, event, data }: EventSourceMessage): void {
    if (event !== undefined && event !== 'message') return;
    if (this.#answered || id !== undefined) return void this.#stream();
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      return void this.#stream();
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return void this.#stream();
    this.#texts.push(data);
    this.#values.push(value);
    if ('id' in value && !('method' in value) && ('result' in value || 'error' in value)) {
      this.#answered = true;
    }
  }
}
