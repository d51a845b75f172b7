import { McpToolsError } from '../../errors/mcp-tools-error.js';
import type { HeaderSource } from '../../http/header-source.js';
import { guardRequest, type HttpGuardSettings, type RequestPrincipal } from '../auth/http-guard.js';
import { StaticTokens } from '../auth/static-tokens.js';

/** Who may read `GET /metrics` besides the holder of the scrape token. */
export type MetricsAccess = 'owners' | 'callers';

/** The fewest characters a scrape token may have (as every static token of the gateway). */
const MIN_SCRAPE_TOKEN_CHARS = 16;

/** What `GET /metrics` serves and to whom. */
export interface MetricsEndpointOptions {
  /** The Prometheus text (format 0.0.4) of the gateway's metrics. */
  scrape: () => Promise<string>;
  /** `owners` (default): owner principals only; `callers`: everyone who passes the front door. */
  access?: MetricsAccess;
  /** A token that opens `/metrics` and nothing else (the scraper's). */
  scrapeToken?: string;
}

const PROMETHEUS_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * `GET /metrics` of the gateway. Its series name servers and tools a caller's view may hide, and
 * how often they run, so by default only an owner or the dedicated scrape token reads them; the
 * scrape token opens nothing else (it is checked here, before the front door, and is no token
 * of `/mcp`). Host, Origin and the gateway chain are checked for the scraper as for `/mcp`.
 */
export class MetricsEndpoint {
  readonly #scrape: () => Promise<string>;
  readonly #access: MetricsAccess;
  readonly #scraper: StaticTokens | undefined;

  constructor(options: MetricsEndpointOptions) {
    this.#scrape = options.scrape;
    this.#access = options.access ?? 'owners';
    if (options.scrapeToken !== undefined && options.scrapeToken.length < MIN_SCRAPE_TOKEN_CHARS)
      throw new McpToolsError(
        'INVALID_ARGUMENTS',
        `the metrics scrape token must be at least ${MIN_SCRAPE_TOKEN_CHARS} characters (is its variable set?)`,
        { recoverable: false },
      );
    this.#scraper =
      options.scrapeToken === undefined
        ? undefined
        : new StaticTokens({ scrape: { token: options.scrapeToken, principal: 'metrics-scraper' } });
  }

  /**
   * The answer to a `GET /metrics` (`target`: the request's URL or path) that presents the scrape
   * token (its Host and Origin checked under `guard`), or `undefined` for any other request,
   * which goes through the front door.
   */
  scraperRequest(
    request: HeaderSource,
    method: string,
    target: string,
    guard: HttpGuardSettings,
  ): Promise<Response> | Response | undefined {
    if (this.#scraper === undefined || method !== 'GET') return undefined;
    if (new URL(target, 'http://gateway.invalid').pathname !== '/metrics') return undefined;
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    if (presented === undefined || this.#scraper.match(presented) === undefined) return undefined;
    const checked = guardRequest(request, {
      maxBodyBytes: guard.maxBodyBytes,
      tokens: this.#scraper,
      ...(guard.allowedHostnames === undefined ? {} : { allowedHostnames: guard.allowedHostnames }),
    });
    return checked instanceof Response ? checked : metricsResponse(this.#scrape);
  }

  /** The answer to `GET /metrics` from `who`, a caller that passed the front door. */
  serve(who: RequestPrincipal): Promise<Response> | Response {
    if (this.#access === 'owners' && !who.owner)
      return new Response('Forbidden: /metrics is served to owners and the scrape token\n', {
        status: 403,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
    return metricsResponse(this.#scrape);
  }
}

/**
 * The answer to `GET /metrics`: `scrape`'s Prometheus text (format 0.0.4), or 500 with the
 * reason when collecting failed.
 */
export async function metricsResponse(scrape: () => Promise<string>): Promise<Response> {
  try {
    return new Response(await scrape(), {
      headers: { 'content-type': PROMETHEUS_TYPE, 'cache-control': 'no-store' },
    });
  } catch (error) {
    return new Response(
      `collecting metrics failed: ${error instanceof Error ? error.message : String(error)}\n`,
      {
        status: 500,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      },
    );
  }
}
