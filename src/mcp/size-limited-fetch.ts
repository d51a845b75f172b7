import type { FetchLike } from '@modelcontextprotocol/client';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { formatBytes } from '../tool/result.js';
import { limitSseEvents } from './sse-event-limiter.js';

/**
 * Default cap on one HTTP message from a server, matching the SDK's stdio buffer
 * (`STDIO_DEFAULT_MAX_BUFFER_SIZE`, 10 MiB) so both transports stop at the same size.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** Size limits of {@link sizeLimitedFetch}. */
export interface SizeLimits {
  /** Largest JSON response body, or largest single event of an SSE stream, in bytes. */
  maxResponseBytes: number;
  /** Largest request body, in bytes. */
  maxRequestBytes: number;
}

/**
 * A `fetch` for the SDK's HTTP transports that enforces size limits before more than the limit
 * is held in memory. A request body over `maxRequestBytes` is refused before it is sent. A JSON
 * body is read up to `maxResponseBytes` (a `Content-Length` over it is not read at all) and
 * refused past it, so the request fails at once. An SSE stream lives long, so each event is
 * capped instead: an event over the limit is dropped as it streams and replaced by a JSON-RPC
 * error for the request it answered ({@link limitSseEvents}).
 */
export function sizeLimitedFetch(limits: SizeLimits, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    checkRequestSize(init?.body, limits);
    const response = await base(url, init);
    if (response.body === null) return response;
    const rebuilt = (body: ReadableStream<Uint8Array> | Uint8Array) =>
      new Response(body as BodyInit, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      return rebuilt(limitSseEvents(response.body, limits.maxResponseBytes));
    }
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > limits.maxResponseBytes) {
      await response.body.cancel().catch(() => undefined);
      throw tooLarge('response', declared, limits.maxResponseBytes, 'maxResponseBytes');
    }
    return rebuilt(await readCapped(response.body, limits.maxResponseBytes));
  };
}

async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge('response', undefined, maxBytes, 'maxResponseBytes');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Throws the `maxRequestBytes` error when `body` (a string) is over the limit. */
export function checkRequestSize(body: unknown, limits: SizeLimits): void {
  if (typeof body !== 'string' || body.length * 3 <= limits.maxRequestBytes) return;
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > limits.maxRequestBytes)
    throw tooLarge('request', bytes, limits.maxRequestBytes, 'maxRequestBytes');
}

/** The error of a message over a size limit. */
export function tooLarge(
  what: string,
  size: number | undefined,
  limit: number,
  option: string,
): McpToolsError {
  const shown = size === undefined ? 'more than' : `${formatBytes(size)}, over`;
  return new McpToolsError(
    what === 'request' ? 'INVALID_ARGUMENTS' : 'UPSTREAM_ERROR',
    `the ${what} is ${shown} the ${formatBytes(limit)} limit (${option})`,
    { data: { limit, option }, recoverable: false },
  );
}
