import { lookup as dnsLookup } from 'node:dns/promises';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type ServerResponse,
} from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AllowEntry } from '../config/allow-entry.js';
import { addressPermitted, matchAllowEntry, normalizeHost } from './egress-allowlist.js';

/** Resolves a host name to its addresses (the proxy's resolver: the host's, through `dns.lookup`). */
export type ResolveHost = (host: string) => Promise<string[]>;

/** What an {@link EgressProxy} lets through and where it reports what it refused. */
export interface EgressProxyOptions {
  /** The server the box runs, named in refusals. */
  server: string;
  allow: readonly AllowEntry[];
  /** Called with one line per refused request: method, host and port only (never a path, query or header). */
  onRefused: (message: string) => void;
  resolve?: ResolveHost;
}

/** A refusal: the status the box gets and the reason the log gets. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    reason: string,
  ) {
    super(reason);
  }
}

/** Headers that belong to one hop (the box's connection to the proxy), never forwarded. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const defaultResolve: ResolveHost = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * The egress proxy of one box, on a unix socket bound into the box (where a relay puts it on the
 * box's loopback): HTTP `CONNECT host:port` and plain HTTP requests in absolute form, let through
 * only to the `host:port` entries of the box's allowlist. The proxy resolves the name itself and
 * connects to an address it checked (a name resolving to a loopback, private, link-local or
 * metadata address is refused unless the entry names that address), so a box never reaches the
 * gateway, Redis or a metadata service, and the address checked is the one connected to.
 * Everything else gets `403` and one line in the log, with the method, host and port only.
 */
export class EgressProxy {
  readonly #options: EgressProxyOptions;
  readonly #resolve: ResolveHost;
  readonly #sockets = new Set<Duplex>();
  readonly #server = createServer();

  constructor(options: EgressProxyOptions) {
    this.#options = options;
    this.#resolve = options.resolve ?? defaultResolve;
    this.#server.on('connection', (socket: Socket) => this.#track(socket));
    this.#server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.#tunnel(req, socket, head).catch(() => socket.destroy());
    });
    this.#server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.#forward(req, res).catch(() => res.destroy());
    });
  }

  /** Starts listening on the unix socket at `path`. */
  listen(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(path, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
  }

  /** Stops listening and ends every connection, tunnels included. */
  close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  #track(socket: Duplex): void {
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
  }

  /** `CONNECT host:port`: a tunnel to a checked address, or a refusal. */
  async #tunnel(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    const target = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(req.url ?? '');
    let upstream: Socket;
    try {
      if (target === null) throw new Refusal(400, 'not a host:port target');
      upstream = await this.#open('CONNECT', target[1]!, Number(target[2]));
    } catch (error) {
      const status = statusOf(error);
      socket.end(
        `HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Bad Gateway'}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    this.#track(upstream);
    upstream.on('error', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    socket.pipe(upstream).pipe(socket);
  }

  /** A plain HTTP request (`GET http://host/path`): forwarded to a checked address, or refused. */
  async #forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    let upstream: Socket;
    try {
      try {
        url = new URL(req.url ?? '');
      } catch {
        throw new Refusal(400, 'not an absolute http: URL');
      }
      if (url.protocol !== 'http:') throw new Refusal(400, 'not an absolute http: URL');
      upstream = await this.#open(req.method ?? 'GET', url.hostname, Number(url.port || 80));
    } catch (error) {
      const status = statusOf(error);
      res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' });
      res.end(status === 403 ? 'refused by the egress allowlist\n' : 'the upstream could not be reached\n');
      return;
    }
    this.#track(upstream);
    const headers: IncomingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers))
      if (!HOP_HEADERS.has(name)) headers[name] = value;
    headers.host = url.host;
    const outgoing = request({
      createConnection: () => upstream,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: headers as Record<string, string | string[]>,
      setHost: false,
    });
    outgoing.on('response', (incoming) => {
      const answer: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(incoming.headers))
        if (!HOP_HEADERS.has(name) && value !== undefined) answer[name] = value;
      res.writeHead(incoming.statusCode ?? 502, answer);
      incoming.pipe(res);
    });
    outgoing.on('error', () => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { connection: 'close' }).end();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(outgoing);
  }

  /**
   * A connection to `host:port` when the allowlist lets the box reach it, to the first of its
   * addresses that is permitted and answers; else a {@link Refusal}, logged.
   */
  async #open(method: string, host: string, port: number): Promise<Socket> {
    const shown = `${method} ${normalizeHost(host)
      .slice(0, 253)
      .replace(/[^\x21-\x7e]/g, '?')}:${port}`;
    const entry = matchAllowEntry(this.#options.allow, host, port);
    if (entry === undefined) throw this.#refuse(shown, 'not on the allowlist');
    const name = normalizeHost(host);
    let addresses: string[];
    try {
      addresses = isIP(name) !== 0 ? [name] : await this.#resolve(name);
    } catch {
      throw new Refusal(502, 'name not resolved');
    }
    const permitted = addresses.filter((address) => addressPermitted(entry, address));
    if (permitted.length === 0)
      throw this.#refuse(
        shown,
        'resolves to a loopback, private or link-local address the entry does not name',
      );
    let failure: unknown;
    for (const address of permitted) {
      try {
        return await connectTo(address, port);
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }

  #refuse(shown: string, reason: string): Refusal {
    this.#options.onRefused(`egress refused for server "${this.#options.server}": ${shown} (${reason})`);
    return new Refusal(403, reason);
  }
}

/** The status a failure answers: a refusal's own, else `502` (the upstream failed). */
function statusOf(error: unknown): number {
  const status = (error as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' ? status : 502;
}

/** How long the proxy waits for an upstream to accept a connection before trying the next address. */
const CONNECT_TIMEOUT_MS = 10_000;

/** A TCP connection to `address:port`, once it is established (or an error after {@link CONNECT_TIMEOUT_MS}). */
function connectTo(address: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port, timeout: CONNECT_TIMEOUT_MS });
    const timedOut = () => socket.destroy(new Error(`connecting to ${address}:${port} timed out`));
    socket.once('timeout', timedOut);
    socket.once('connect', () => {
      socket.off('error', reject);
      socket.off('timeout', timedOut);
      socket.setTimeout(0);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}
