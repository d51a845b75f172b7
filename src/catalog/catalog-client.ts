import type { z } from 'zod';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import type { CatalogCache } from './catalog-cache.js';
import {
  type CatalogEntry,
  type CatalogPage,
  catalogEntrySchema,
  catalogPageSchema,
} from './catalog-records.js';
import type { CatalogSource } from './catalog-source.js';

/** The query of `GET /v0.1/servers`. */
export interface CatalogQuery {
  /** Substring of the server name. */
  search?: string;
  /** The opaque cursor of the previous page's `metadata.nextCursor`. */
  cursor?: string;
  limit?: number;
  /** `latest`, or an exact version. */
  version?: string;
  /** RFC 3339 time: only records updated since. */
  updatedSince?: string;
}

/** Options of {@link CatalogClient}. */
export interface CatalogClientOptions {
  /** Answers kept for offline use; without it, an unreachable registry is an error. */
  cache?: CatalogCache;
  /** Receives the note that a cached answer was used. */
  onWarning?: (message: string) => void;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Per request. Default 15 000 ms. */
  timeoutMs?: number;
}

/** The most bytes one answer may have; a registry page is a few hundred KiB at most. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/**
 * A client of one registry's v0.1 read API (the vendored `spec/registry/openapi.yaml`): the
 * server list with `search`, `cursor`, `limit`, `version` and `updated_since`, a server's
 * versions, and one version (or `latest`). Every answer is validated before use; a registry that
 * cannot be reached is answered from the cache with a warning when the cache holds the URL.
 * Errors name the registry's URL, never its headers.
 */
export class CatalogClient {
  readonly source: CatalogSource;
  readonly #options: CatalogClientOptions;

  constructor(source: CatalogSource, options: CatalogClientOptions = {}) {
    this.source = source;
    this.#options = options;
  }

  /** One page of `GET /v0.1/servers`. */
  async list(query: CatalogQuery = {}): Promise<CatalogPage> {
    const params = new URLSearchParams();
    if (query.search) params.set('search', query.search);
    if (query.cursor) params.set('cursor', query.cursor);
    if (query.limit !== undefined) params.set('limit', String(query.limit));
    if (query.version) params.set('version', query.version);
    if (query.updatedSince) params.set('updated_since', query.updatedSince);
    const suffix = params.size > 0 ? `?${params}` : '';
    const page = await this.#get(`/v0.1/servers${suffix}`, catalogPageSchema);
    if (page === undefined) throw this.#error(`answered 404 to the server list`);
    return page;
  }

  /** Every version of `name`, newest first; `undefined` when the registry does not know it. */
  async versions(name: string): Promise<CatalogEntry[] | undefined> {
    const page = await this.#get(`/v0.1/servers/${encodeURIComponent(name)}/versions`, catalogPageSchema);
    return page?.servers;
  }

  /** One version of `name` (`latest` by default); `undefined` when there is no such record. */
  async version(name: string, version = 'latest'): Promise<CatalogEntry | undefined> {
    return this.#get(
      `/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`,
      catalogEntrySchema,
    );
  }

  async #get<T>(path: string, schema: z.ZodType<T>): Promise<T | undefined> {
    const url = `${this.source.url.replace(/\/+$/, '')}${path}`;
    const cache = this.#options.cache;
    let body: unknown;
    try {
      body = await this.#fetchJson(url);
    } catch (error) {
      if (!(error instanceof Unreachable) || cache === undefined) throw error;
      const cached = await cache.get(url);
      if (cached === undefined) throw error.toError();
      this.#options.onWarning?.(
        `${this.source.url} cannot be reached (${error.reason}); using its answer cached at ${cached.fetchedAt}`,
      );
      body = cached.body;
    }
    if (body === NOT_FOUND) return undefined;
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw this.#error(
        `answered ${path.split('?')[0]} with a record that does not follow the registry API (${issue?.path.join('.') || 'value'}: ${issue?.message})`,
      );
    }
    await cache?.put(url, body);
    return parsed.data;
  }

  async #fetchJson(url: string): Promise<unknown> {
    const doFetch = this.#options.fetch ?? fetch;
    let response: Response;
    try {
      response = await doFetch(url, {
        headers: { accept: 'application/json', ...this.source.headers },
        signal: AbortSignal.timeout(this.#options.timeoutMs ?? 15_000),
        redirect: 'follow',
      });
    } catch (error) {
      throw new Unreachable(
        this.source.url,
        (error as Error).name === 'TimeoutError' ? 'timed out' : 'no answer',
      );
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return NOT_FOUND;
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new Unreachable(this.source.url, `HTTP ${response.status}`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw this.#error(`answered HTTP ${response.status}`);
    }
    const text = await readBounded(response, MAX_ANSWER_BYTES);
    if (text === undefined) throw this.#error(`answered with more than ${MAX_ANSWER_BYTES} bytes`);
    try {
      return JSON.parse(text);
    } catch {
      throw this.#error('answered with something that is not JSON');
    }
  }

  #error(message: string): McpToolsError {
    return new McpToolsError('UPSTREAM_ERROR', `the registry ${this.source.url} ${message}`, {
      recoverable: false,
    });
  }
}

/** What a 404 parses to: the registry has no such server or version. */
const NOT_FOUND = Symbol('not found');

/** A registry that gave no usable answer, which the cache may stand in for. */
class Unreachable extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`the registry ${url} cannot be reached (${reason})`);
  }

  toError(): McpToolsError {
    return new McpToolsError('CONNECTION_FAILED', `${this.message}, and nothing of it is cached`);
  }
}

/** The body as text, or `undefined` past `limit` bytes. */
async function readBounded(response: Response, limit: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
