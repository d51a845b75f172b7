import {
  type FetchLike,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type StreamableHTTPClientTransportOptions,
  type Transport,
} from '@modelcontextprotocol/client';
import type { TransportAuth } from '../auth/transport-auth.js';
import { chainHeaders, learnReach, REACH_HEADER } from '../chain/gateway-chain.js';
import type { HttpServerConfig } from '../config/config-types.js';
import { urlBasicCredentials } from '../config/url-basic-credentials.js';
import { tracingFetch } from '../telemetry/trace-context.js';
import type { TransportKind } from './hub-types.js';
import { createPooledHttpFetch, type PooledHttpFetch } from './pooled-http-fetch.js';
import { type SizeLimits, sizeLimitedFetch } from './size-limited-fetch.js';

// The HTTP half of create-transport.ts, loaded by the first HTTP server only.

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

/**
 * Builds the SDK's HTTP transport of `kind` (`streamable-http` or `sse`) for `config`; see
 * `createTransport` in create-transport.ts, which loads this module for the first HTTP server.
 */
export function createHttpTransport(
  config: HttpServerConfig,
  kind: TransportKind,
  auth?: TransportAuth,
  limits?: SizeLimits,
): Transport {
  const url = new URL(config.url);
  const requestInit: RequestInit = { headers: httpHeaders(config, url) };
  const authProvider = auth === undefined ? {} : { authProvider: auth.authProvider() };
  if (kind === 'sse' || process.env.MCPTOOLS_HTTP_POOL === '0') {
    // Sizes are counted on the wire; OAuth step-up wraps that.
    // The current span's W3C Trace Context rides every request as headers too.
    const limited = tracingFetch(
      limits === undefined ? (url, init) => globalThis.fetch(url, init) : sizeLimitedFetch(limits),
    );
    const fetch = learningReach(auth?.fetch ? auth.fetch(limited) : limited);
    const options = { requestInit, ...authProvider, fetch };
    return kind === 'sse'
      ? new SSEClientTransport(url, options)
      : new StreamableHTTPClientTransport(url, options);
  }
  const pool = createPooledHttpFetch(limits);
  // The current span's W3C Trace Context rides every request as headers too.
  const traced = tracingFetch(pool.fetch);
  const fetch = learningReach(auth?.fetch ? auth.fetch(traced) : traced);
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
