import {
  type FetchLike,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type StreamableHTTPClientTransportOptions,
  type Transport,
} from '@modelcontextprotocol/client';
import type { TransportAuth } from '../auth/transport-auth.js';
import type { HttpServerConfig, ServerConfig } from '../config/config-types.js';
import { urlBasicCredentials } from '../config/url-basic-credentials.js';
import { CHAIN_ENV, chainEnvironment, chainHeaders, learnReach, REACH_HEADER } from './gateway-chain.js';
import { createPooledHttpFetch, type PooledHttpFetch } from './pooled-http-fetch.js';
import type { TransportKind } from './provider-types.js';
import type { ReusableStdioParameters } from './reusable-stdio-transport.js';
import { type SizeLimits, sizeLimitedFetch } from './size-limited-fetch.js';
import type { StderrTail } from './stderr-tail.js';

/** The transports worth trying for `config`, in order: `http` tries Streamable HTTP, then SSE. */
export function transportKindsFor(config: ServerConfig): TransportKind[] {
  switch (config.type) {
    case 'stdio':
      return ['stdio'];
    case 'sse':
      return ['sse'];
    case 'streamable-http':
      return ['streamable-http'];
    case 'http':
      return ['streamable-http', 'sse'];
  }
}

function httpHeaders(config: HttpServerConfig, url: URL): Record<string, string> {
  // The gateway chain first: a configured header of the same name cannot forge it away.
  const headers: Record<string, string> = { ...config.headers, ...chainHeaders() };
  if (config.auth?.type === 'bearer') headers.Authorization = `Bearer ${config.auth.token}`;
  if (config.auth?.type === 'api-key') headers[config.auth.header ?? 'X-API-Key'] = config.auth.key;
  const basic = urlBasicCredentials(url);
  url.username = '';
  url.password = '';
  const hasAuthorization = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
  if (basic !== undefined && !hasAuthorization) headers.Authorization = `Basic ${basic}`;
  return headers;
}

/** The stdio transport module, loaded once by the first stdio server (with `cross-spawn` under it). */
let stdioModule: Promise<typeof import('./reusable-stdio-transport.js')> | undefined;

/**
 * Builds the SDK transport of `kind` for `config`. Stdio children get the SDK's safe default
 * environment (the SDK adds it) plus the configured one, and their stderr read into `stderr`.
 * HTTP transports get `auth` (OAuth) as their `authProvider` and step-up `fetch`, over the size
 * limits (`limits`): Streamable HTTP through a {@link createPooledHttpFetch} pool of its own,
 * which its `close()` ends; legacy HTTP+SSE, and Streamable HTTP with `MCPTOOLS_HTTP_POOL=0`
 * (for a host whose HTTP must go through Node's global dispatcher: a proxy agent, client
 * certificates), through {@link sizeLimitedFetch} over the global `fetch`. The stdio transport
 * (and `cross-spawn` under it) is loaded by the first stdio server, not by an import of mcptools.
 */
export async function createTransport(
  config: ServerConfig,
  kind: TransportKind,
  stderr: StderrTail,
  auth?: TransportAuth,
  limits?: SizeLimits,
): Promise<Transport> {
  if (config.type === 'stdio') {
    stdioModule ??= import('./reusable-stdio-transport.js');
    const { ReusableStdioTransport } = await stdioModule;
    const parameters: ReusableStdioParameters = { command: config.command, args: config.args ?? [] };
    // The gateway chain (see gateway-chain.ts) goes to every child, over its configured environment.
    const chain = chainEnvironment();
    if (config.env !== undefined || chain[CHAIN_ENV] !== undefined)
      parameters.env = { ...config.env, ...chain };
    if (config.cwd !== undefined) parameters.cwd = config.cwd;
    return new ReusableStdioTransport(parameters, stderr);
  }
  const url = new URL(config.url);
  const requestInit: RequestInit = { headers: httpHeaders(config, url) };
  const authProvider = auth === undefined ? {} : { authProvider: auth.authProvider() };
  if (kind === 'sse' || process.env.MCPTOOLS_HTTP_POOL === '0') {
    // Sizes are counted on the wire; OAuth step-up wraps that.
    const limited = limits === undefined ? undefined : sizeLimitedFetch(limits);
    const fetch = learningReach(auth?.fetch ? auth.fetch(limited) : limited);
    const options = { requestInit, ...authProvider, ...(fetch === undefined ? {} : { fetch }) };
    return kind === 'sse'
      ? new SSEClientTransport(url, options)
      : new StreamableHTTPClientTransport(url, options);
  }
  const pool = createPooledHttpFetch(limits);
  const fetch = learningReach(auth?.fetch ? auth.fetch(pool.fetch) : pool.fetch);
  return new PooledStreamableHttpTransport(url, { requestInit, ...authProvider, fetch }, pool);
}

/** `fetch` (or the global one) that learns, from each answer, which gateways are reachable behind it. */
function learningReach(fetch: FetchLike | undefined): FetchLike {
  const base: FetchLike = fetch ?? ((url, init) => globalThis.fetch(url, init));
  return async (url, init) => {
    const response = await base(url, init);
    learnReach(response.headers.get(REACH_HEADER));
    return response;
  };
}

/** The SDK's Streamable HTTP transport over a {@link PooledHttpFetch}, whose sockets its close ends. */
class PooledStreamableHttpTransport extends StreamableHTTPClientTransport {
  readonly #pool: PooledHttpFetch;

  constructor(url: URL, options: StreamableHTTPClientTransportOptions, pool: PooledHttpFetch) {
    super(url, options);
    this.#pool = pool;
  }

  override async close(): Promise<void> {
    try {
      await super.close();
    } finally {
      this.#pool.close();
    }
  }
}
