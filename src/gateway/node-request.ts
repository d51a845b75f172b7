import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HeaderSource } from './http-guard.js';

/**
 * A Node request's headers as {@link HeaderSource}, read in place: the front-door checks run
 * on every request, and building a web `Request` for them costs more than the checks.
 */
export function nodeHeaders(req: IncomingMessage): HeaderSource {
  return {
    headers: {
      get(name: string): string | null {
        const value = req.headers[name];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    },
  };
}

/** A request body as read by {@link readNodeBody}. */
export type NodeBody = { text: string } | { tooLarge: true };

/**
 * Reads a Node request's body (Node has already undone the HTTP framing) as UTF-8 text, up to
 * `maxBytes`: past that it stops reading and says so.
 */
export async function readNodeBody(req: IncomingMessage, maxBytes: number): Promise<NodeBody> {
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    received += buffer.byteLength;
    if (received > maxBytes) return { tooLarge: true };
    chunks.push(buffer);
  }
  return { text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8') };
}

/** Writes a small, complete web `Response` (a refusal, an error) to a Node response. */
export async function sendResponse(res: ServerResponse, response: Response, close = false): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (close) headers.connection = 'close';
  res.writeHead(response.status, headers);
  res.end(await response.text());
}
