import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  CHAIN_HEADER,
  incomingLoop,
  REACH_HEADER,
  reachHeaderValue,
  requestLoop,
} from '../chain/gateway-chain.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';

/** A listen address held while the servers connect: its real port, and its release. */
export interface HeldAddress {
  host: string;
  /** The bound port (a free one when 0 was asked for). */
  port: number;
  /** Stops answering and frees the port, for the gateway to bind it. */
  release(): Promise<void>;
}

/** Bodies of requests answered while starting are read up to this size (an `initialize` is small). */
const MAX_BODY = 64 * 1024;

/**
 * Binds `address` before any server connects, so that `serve --http` knows its own URL (an
 * entry naming it is skipped) and answers at once whatever reaches it meanwhile: a request
 * whose gateway chain shows a loop — in its header or inside an `initialize` a bridge
 * forwarded — gets 508 (the connecting side then skips it), anything else 503 with
 * `Retry-After` ("starting"). Without this a child that connects back (a bridge to this URL)
 * would wait for its connect timeout, and this gateway for the child. The gateway binds the
 * port again right after {@link HeldAddress.release}.
 */
export async function holdListenAddress(address: { host: string; port: number }): Promise<HeldAddress> {
  const server = createServer((request, response) => void answer(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, address)));
    server.listen(address.port, address.host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const bound = server.address();
  return {
    host: address.host,
    port: typeof bound === 'object' && bound !== null ? bound.port : address.port,
    release: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A failed bind in words that say what to do: another port, by the flag or `npm start`'s variable. */
function listenError(error: NodeJS.ErrnoException, address: { host: string; port: number }): Error {
  const where = `${address.host}:${address.port}`;
  const choose = 'choose another with --http HOST:PORT (npm start: MCPTOOLS_PORT=PORT)';
  if (error.code === 'EADDRINUSE')
    return new McpToolsError(
      'INVALID_ARGUMENTS',
      `port ${address.port} is in use on ${address.host} (is another mcptools serving it?): ${choose}`,
      { cause: error, recoverable: false },
    );
  if (error.code === 'EACCES')
    return new McpToolsError(
      'INVALID_ARGUMENTS',
      `no permission to listen on ${where} (ports below 1024 need privileges): ${choose}`,
      { cause: error, recoverable: false },
    );
  if (error.code === 'EADDRNOTAVAIL')
    return new McpToolsError(
      'INVALID_ARGUMENTS',
      `${address.host} is not an address of this machine: listen on 127.0.0.1 or one of its own addresses`,
      { cause: error, recoverable: false },
    );
  return error;
}

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const reach = reachHeaderValue();
  if (reach !== undefined) response.setHeader(REACH_HEADER, reach);
  const header = request.headers[CHAIN_HEADER];
  let loop = incomingLoop(typeof header === 'string' ? header : null);
  if (loop === undefined && request.method === 'POST') loop = requestLoop(await readJson(request));
  else request.resume();
  const [status, message] =
    loop === undefined ? [503, 'the gateway is starting; retry shortly'] : [508, loop];
  response.writeHead(status, {
    'content-type': 'application/json',
    ...(status === 503 ? { 'retry-after': '1' } : {}),
  });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** The request's JSON body (up to {@link MAX_BODY}), or `undefined`. */
async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
