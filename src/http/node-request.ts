import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HeaderSource } from './header-source.js';

/**
 * A Node request's headers as {@link HeaderSource}, read in place: the front-door checks run
 * on every request, and building a web `Request` for them costs more than the checks.
 */
export function nodeHeaders(req: IncomingMessage): HeaderSource {
  return {
    ...(req.url === undefined ? {} : { url: req.url }),
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
export function readNodeBody(req: IncomingMessage, maxBytes: number): Promise<NodeBody> {
  // Events rather than `for await`: a stream's async iterator costs more than reading one
  // small body (this runs on every call).
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += buffer.byteLength;
      if (received > maxBytes) {
        finish();
        req.pause();
        resolve({ tooLarge: true });
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = () => {
      finish();
      resolve({
        text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'),
      });
    };
    const onError = (error: Error) => {
      finish();
      reject(error);
    };
    const onClose = () => {
      finish();
      reject(new Error('the client closed the connection before sending the whole body'));
    };
    const finish = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/**
 * Reads whatever is left of a request's body and drops it; resolves once the whole body has
 * come (or the client went away). A server that ends its answer with the body unread closes a
 * `Connection: close` request's socket while the client is still sending, and the client can
 * lose the answer in the reset.
 */
export function dropBody(req: IncomingMessage): Promise<void> {
  if (req.complete) return Promise.resolve();
  return new Promise((resolve) => {
    req.resume();
    req.once('end', resolve).once('close', resolve);
  });
}

/**
 * Writes a small, complete web `Response` (a refusal, an error) to a Node response, with its
 * length. Given the request (`drain`), its unread body is read and dropped before the response
 * ends: closing with it unread would reset the connection, and the client would lose the
 * answer. `close` ends the connection after the answer instead.
 */
export async function sendResponse(
  res: ServerResponse,
  response: Response,
  options: { drain?: IncomingMessage; close?: boolean } = {},
): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // Each cookie is a header of its own (iterating `Headers` yields them one by one, under one name).
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  if (options.close) headers.connection = 'close';
  const drained = options.drain ? dropBody(options.drain) : undefined;
  const text = await response.text();
  res.writeHead(response.status, { ...headers, 'content-length': String(Buffer.byteLength(text)) });
  res.write(text);
  await drained;
  res.end();
}
