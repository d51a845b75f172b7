import { Agent, request } from 'node:http';
import { initializeRequest } from '../helpers/initialize-request.js';

/** One hand-built HTTP request: any method, path, headers and body bytes. */
export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Sent with `Transfer-Encoding: chunked` (no `Content-Length`), in 64 KiB pieces. */
  chunked?: boolean;
}

/** What came back: the status, the content type, and the body (empty past 16 MiB). */
export interface RawAnswer {
  status: number;
  contentType: string;
  body: string;
  /** A GET answered with an event stream: the headers came, the stream was left open and dropped. */
  openStream: boolean;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/**
 * Sends `raw` to `origin` (`http://127.0.0.1:PORT`) and resolves with the answer, or rejects
 * when none came within `timeoutMs` (a hang) or the connection failed before any answer.
 */
export function sendRaw(origin: string, raw: RawRequest, timeoutMs = 15_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    let settled = false;
    let answered: RawAnswer | undefined;
    const finish = (outcome: RawAnswer | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const outgoing = request(
      {
        // A big body may be refused before it is read and its connection closed: never reuse it.
        agent: (raw.body?.length ?? 0) > 65_536 ? false : agent,
        hostname,
        port,
        method: raw.method,
        path: raw.path,
        // Node's client frames a GET's body only when told how.
        headers:
          raw.body === undefined
            ? raw.headers
            : raw.chunked
              ? { ...raw.headers, 'transfer-encoding': 'chunked' }
              : { ...raw.headers, 'content-length': String(raw.body.length) },
      },
      (response) => {
        const contentType = String(response.headers['content-type'] ?? '');
        const status = response.statusCode ?? 0;
        answered = { status, contentType, body: '', openStream: false };
        if (raw.method === 'GET' && contentType.startsWith('text/event-stream')) {
          response.destroy();
          finish({ status, contentType, body: '', openStream: true });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < 16 * 1024 * 1024) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () =>
          finish({
            status,
            contentType,
            body: size > 16 * 1024 * 1024 ? '' : Buffer.concat(chunks).toString('utf8'),
            openStream: false,
          }),
        );
        response.on('error', () => finish(answered!));
      },
    );
    const timer = setTimeout(() => {
      outgoing.destroy();
      finish(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    // A server refusing a body may close the connection while it is still being sent: the
    // answer that came first is what counts.
    outgoing.on('error', (error) => finish(answered ?? new Error(`no answer: ${error.message}`)));
    if (raw.body === undefined) outgoing.end();
    else if (!raw.chunked) outgoing.end(raw.body);
    else {
      for (let at = 0; at < raw.body.length; at += 65_536) outgoing.write(raw.body.subarray(at, at + 65_536));
      outgoing.end();
    }
  });
}

/** Opens a 2025-era session at `url` with a raw `initialize`; returns its id. */
export async function openLegacySession(url: string): Promise<string> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(initializeRequest({ id: 0 })),
  });
  await answer.text();
  const id = answer.headers.get('mcp-session-id');
  if (!id) throw new Error(`initialize answered ${answer.status} without a session id`);
  return id;
}
