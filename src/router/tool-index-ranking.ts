import { clampDurationMs } from '../config/duration.js';
import type { SearchableTool } from './search/searchable-tool.js';
import {
  DEFAULT_SEMANTIC_WAIT_MS,
  DEFAULT_SEMANTIC_WEIGHT,
  DocumentVectors,
  fuseRankings,
  queryVector,
  type SemanticSearchOptions,
} from './search/semantic-search.js';
import type { ToolSearchHit, ToolSearchOptions } from './search/tool-search-index.js';
import type { ToolIndexSnapshot } from './tool-index-catalog.js';

/** Ranked hits, and why the semantic half was skipped if it was. */
export interface ToolIndexRanking {
  hits: ToolSearchHit[];
  warning?: string;
}

const REMEMBERED_QUERIES = 32;
const WARNING_CHARS = 200;

const STILL_EMBEDDING =
  'semantic search is still embedding the tools, lexical ranking only for now; later searches use it';

/** `promise`'s value, or `undefined` when it takes longer than `ms`; a later rejection is dropped. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  if (!Number.isFinite(ms)) return promise;
  promise.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, clampDurationMs(ms)));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ranks a catalog snapshot for a search: the lexical BM25F ranking, fused with semantic
 * similarity when an embedder is configured. Tool vectors are kept per tool and recent
 * query vectors are remembered, so paging through results embeds nothing again. An
 * embedder that fails, or has not finished within `waitMs`, leaves the lexical ranking and
 * a warning, never an error.
 */
export class ToolIndexRanker {
  readonly #semantic: SemanticSearchOptions | undefined;
  readonly #documents = new DocumentVectors();
  readonly #queries = new Map<string, Float32Array>();

  constructor(semantic?: SemanticSearchOptions) {
    this.#semantic = semantic;
  }

  /** Starts embedding the tools not embedded yet, in the background, so the first search waits less. */
  prepare(entries: Pick<ToolIndexSnapshot, 'entries'>['entries']): void {
    if (this.#semantic && entries.length > 0) this.#documents.of(entries, this.#semantic).catch(() => {});
  }

  async rank(
    snapshot: Pick<ToolIndexSnapshot, 'entries' | 'searchIndex'>,
    search: string,
    filters: ToolSearchOptions,
  ): Promise<ToolIndexRanking> {
    const options = { ...filters, limit: snapshot.entries.length };
    const index = snapshot.searchIndex();
    const lexical = index.search(search, options);
    const semantic = this.#semantic;
    if (!semantic || snapshot.entries.length === 0) return { hits: lexical };
    try {
      const vectors = await within(
        this.#vectors(snapshot.entries, search, semantic),
        semantic.waitMs ?? DEFAULT_SEMANTIC_WAIT_MS,
      );
      if (vectors === undefined) return { hits: lexical, warning: STILL_EMBEDDING };
      const { documents, query } = vectors;
      const weight = semantic.weight ?? DEFAULT_SEMANTIC_WEIGHT;
      const bound = index.scoreBound(search);
      return { hits: fuseRankings(snapshot.entries, lexical, bound, documents, query, weight, options) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return {
        hits: lexical,
        warning: `semantic search failed, lexical ranking only: ${message.slice(0, WARNING_CHARS)}`,
      };
    }
  }

  /** The tools' vectors and the query's, all of one length. */
  async #vectors(entries: readonly SearchableTool[], search: string, semantic: SemanticSearchOptions) {
    const documents = await this.#documents.of(entries, semantic);
    const dimensions = documents[0]!.length;
    // Without a cache every vector comes from this run's model, so the lengths must agree.
    const query = await this.#queryVector(search, semantic, semantic.cache ? undefined : dimensions);
    if (query.length === dimensions) return { documents, query };
    // Cached tool vectors of another length were made by another model: embed the tools again.
    this.#documents.restart(query.length);
    return { documents: await this.#documents.of(entries, semantic), query };
  }

  async #queryVector(search: string, semantic: SemanticSearchOptions, dimensions: number | undefined) {
    let vector = this.#queries.get(search);
    if (vector === undefined || (dimensions !== undefined && vector.length !== dimensions)) {
      vector = await queryVector(search, semantic, dimensions);
      if (this.#queries.size >= REMEMBERED_QUERIES) this.#queries.delete(this.#queries.keys().next().value!);
    }
    // Re-inserted, so the map's order is least recently used first.
    this.#queries.delete(search);
    this.#queries.set(search, vector);
    return vector;
  }
}
