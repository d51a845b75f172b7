import { readRequestBody } from '@modelcontextprotocol/server';
import type { HttpExchange, ReadBody } from './http-exchange.js';

/** The web `fetch` face's {@link HttpExchange}: a `Request` as it came, and the headers added to its answer. */
export class WebExchange implements HttpExchange {
  readonly request: Request;
  readonly target: string;
  readonly pathname: string;
  readonly #added: [string, string][] = [];

  constructor(request: Request) {
    this.request = request;
    this.target = request.url;
    this.pathname = new URL(request.url).pathname;
  }

  async readBody(maxBytes: number): Promise<ReadBody> {
    const read = await readRequestBody(this.request, maxBytes);
    return read.tooLarge ? read : { text: read.text };
  }

  setHeader(name: string, value: string): void {
    this.#added.push([name, value]);
  }

  /** `response` with the headers {@link setHeader} added (a new `Response`: another's headers may be immutable). */
  answer(response: Response): Response {
    if (this.#added.length === 0) return response;
    const headers = new Headers(response.headers);
    for (const [name, value] of this.#added) headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
