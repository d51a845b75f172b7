import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { withNodeBody } from '../http/node-body.js';
import { servedByNodeFace } from '../http/node-exchange.js';
import { FORWARD_HEADER } from './forward-signature.js';

/** Headers that describe one hop, not the exchange: never carried to the owner or back. */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-connection',
  FORWARD_HEADER,
]);

/**
 * The client's credentials stay on the replica that verified them: the owner learns the caller
 * from the signed forwarding header, so a bearer token never crosses the network between replicas.
 */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie']);

/** What a client hears for a request its replica received but died before answering. */
export const STOPPED_BEFORE_ANSWER =
  'the gateway replica serving this call stopped before it answered; call again';

// Kept-alive connections between replicas: a forwarded call pays no TCP handshake.
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });

/** What {@link forwardRequest} sends. */
export interface ForwardTarget {
  /** The owner's advertised base URL (`http://10.0.0.5:8808`). */
  baseUrl: string;
  /** The request's path and query. */
  path: string;
  /** The {@link FORWARD_HEADER} value. */
  signature: string;
  /** The body as text (`''` for none). */
  body: string;
  /** The JSON-RPC request id, when the body is one request: a stream cut short then ends with an error for it. */
  requestId?: string | number;
}

/**
 * Forwards `request` to the replica that owns its session and streams the answer back as it
 * comes (SSE included). When the owner's answer breaks off (the owner died) before a POST's
 * response came, the client gets a JSON-RPC error for its request at the end of the stream
 * instead of a hang. Rejects when the owner cannot be reached at all.
 */
export function forwardRequest(request: Request, target: ForwardTarget): Promise<Response> {
  const url = new URL(target.path, target.baseUrl);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    if (!HOP_HEADERS.has(name) && !CREDENTIAL_HEADERS.has(name)) headers[name] = value;
  });
  headers[FORWARD_HEADER] = target.signature;
  if (target.body.length > 0) headers['content-length'] = String(Buffer.byteLength(target.body));
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const outgoing = (secure ? httpsRequest : httpRequest)(url, {
      method: request.method,
      headers,
      agent: secure ? httpsAgent : httpAgent,
    });
    const onAbort = () => outgoing.destroy(new Error('the client went away'));
    request.signal.addEventListener('abort', onAbort, { once: true });
    outgoing.once('error', (error) => {
      request.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    outgoing.once('response', (incoming) => {
      const init = { status: incoming.statusCode ?? 502, headers: responseHeaders(incoming) };
      if (!hasBody(incoming, request.method)) {
        incoming.resume();
        resolve(new Response(null, init));
      } else if (servedByNodeFace(request)) {
        const onBreak = () => brokenTail(incoming, target.requestId);
        resolve(withNodeBody(new Response(null, init), { stream: incoming, onBreak }));
      } else resolve(new Response(responseBody(incoming, target.requestId), init));
    });
    outgoing.end(target.body);
  });
}

function responseHeaders(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    for (const each of Array.isArray(value) ? value : [value]) headers.append(name, each);
  }
  return headers;
}

/** Whether the owner's answer has a body at all. */
function hasBody(incoming: IncomingMessage, method: string): boolean {
  return method !== 'HEAD' && incoming.statusCode !== 204 && incoming.statusCode !== 304;
}

/**
 * What ends the owner's answer when it breaks off (the owner died) before its end: for an SSE
 * answer to a request, an error event for it (the client gets an error, not a hang); otherwise
 * nothing (the answer breaks off too).
 */
function brokenTail(
  incoming: IncomingMessage,
  requestId: string | number | undefined,
): Uint8Array | undefined {
  const sse = String(incoming.headers['content-type'] ?? '').startsWith('text/event-stream');
  if (!sse || requestId === undefined) return undefined;
  const error = { jsonrpc: '2.0', id: requestId, error: { code: -32603, message: STOPPED_BEFORE_ANSWER } };
  return new TextEncoder().encode(`event: message\ndata: ${JSON.stringify(error)}\n\n`);
}

/** The owner's body as a web stream (for the library's web face); a broken answer ends as {@link brokenTail} says. */
function responseBody(
  incoming: IncomingMessage,
  requestId: string | number | undefined,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let ended = false;
      incoming.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) incoming.pause();
      });
      incoming.once('end', () => {
        ended = true;
        controller.close();
      });
      incoming.once('close', () => {
        if (ended) return;
        ended = true;
        const tail = brokenTail(incoming, requestId);
        if (tail === undefined) controller.error(new Error('the owning replica went away'));
        else {
          controller.enqueue(tail);
          controller.close();
        }
      });
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      incoming.destroy();
    },
  });
}
