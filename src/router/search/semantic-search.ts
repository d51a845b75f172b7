import { type EmbedTexts, embedAll } from './embed-batches.js';
import { type EmbeddingCache, embedDocuments } from './embedding-cache.js';
import type { SearchableTool } from './searchable-tool.js';
import type { ToolSearchHit, ToolSearchOptions } from './tool-search-index.js';

/** Semantic ranking fused with the lexical one. */
export interface SemanticSearchOptions {
  embed: EmbedTexts;
  /** Share of the semantic similarity in the fused score, from 0 to 1. Default 0.3. */
  weight?: number;
  /** Most texts per `embed` call. Default 64. */
  batchSize?: number;
  /**
   * How long a search waits for the embeddings it needs, in ms, before it answers with the
   * lexical ranking and a warning; the embedding goes on, and later searches use it.
   * Default 5000; `Infinity` always waits.
   */
  waitMs?: number;
  /** Keeps tool vectors between runs (see `fileEmbeddingCache`); use one cache per model. */
  cache?: EmbeddingCache;
}

/** Default share of the semantic similarity in the fused score. */
export const DEFAULT_SEMANTIC_WEIGHT = 0.3;

/** Default wait of a search for embeddings still being computed. */
export const DEFAULT_SEMANTIC_WAIT_MS = 5000;

const EMBEDDED_DESCRIPTION_CHARS = 500;

/** What is embedded for a tool: its name in words, then the start of its description. */
export function embeddingText(entry: SearchableTool): string {
  const name = (entry.originalName ?? entry.name)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-./]+/g, ' ')
    .trim();
  return `${name}: ${entry.description.slice(0, EMBEDDED_DESCRIPTION_CHARS)}`;
}

/**
 * Unit vectors of tool texts, kept per tool entry object: a catalog rebuilt after one
 * server changed embeds only that server's tools again, and concurrent searches share one
 * embedding of the tools they both need. A failed embedding is forgotten, so the next
 * search tries again.
 */
export class DocumentVectors {
  #vectors = new WeakMap<SearchableTool, Promise<Float32Array>>();
  #dimensions: number | undefined;

  /**
   * Forgets every vector: the model now makes vectors `dimensions` long (found when a query
   * vector did not match cached tool vectors), so every tool is looked up or embedded again.
   */
  restart(dimensions: number): void {
    this.#vectors = new WeakMap();
    this.#dimensions = dimensions;
  }

  /** The vectors of `entries`, in order, embedding only those not seen before. */
  async of(entries: readonly SearchableTool[], options: SemanticSearchOptions): Promise<Float32Array[]> {
    const missing = entries.filter((entry) => !this.#vectors.has(entry));
    if (missing.length > 0) {
      const batch = embedDocuments(missing.map(embeddingText), options, this.#dimensions).then((vectors) => {
        this.#dimensions ??= vectors[0]?.length;
        return vectors;
      });
      missing.forEach((entry, index) => {
        this.#vectors.set(
          entry,
          batch.then((vectors) => vectors[index]!),
        );
      });
      batch.catch(() => {
        for (const entry of missing) this.#vectors.delete(entry);
      });
    }
    return Promise.all(entries.map((entry) => this.#vectors.get(entry)!));
  }
}

/** The unit vector of a query, checked against the documents' dimensions when given. */
export async function queryVector(
  query: string,
  options: SemanticSearchOptions,
  dimensions: number | undefined,
): Promise<Float32Array> {
  const [vector] = await embedAll([query], 'query', options, dimensions);
  return vector!;
}

/**
 * Fuses a lexical ranking with cosine similarity: each score is `(1 - weight)` times the
 * lexical score on a 0–1 scale (over `lexicalBound`, the most the query could score; at most
 * 1) plus `weight` times the similarity (below zero counts as zero). Scaling by the bound,
 * not by the best hit, keeps a weak partial match from counting as a perfect one. A tool
 * with neither is left out; filters apply as in the lexical search.
 */
export function fuseRankings(
  entries: readonly SearchableTool[],
  lexical: readonly ToolSearchHit[],
  lexicalBound: number,
  documents: readonly Float32Array[],
  query: Float32Array,
  weight: number,
  options: ToolSearchOptions = {},
): ToolSearchHit[] {
  const share = Math.min(1, Math.max(0, weight));
  const bound = Math.max(lexicalBound, ...lexical.map((hit) => hit.score), Number.MIN_VALUE);
  const lexicalScore = new Map(lexical.map((hit) => [hit.name, hit.score / bound]));
  const hits: ToolSearchHit[] = [];
  entries.forEach((entry, index) => {
    if (options.category !== undefined && entry.category !== options.category) return;
    if (options.server !== undefined && entry.server !== options.server) return;
    const document = documents[index]!;
    let similarity = 0;
    for (let dimension = 0; dimension < query.length; dimension++)
      similarity += query[dimension]! * document[dimension]!;
    const score = (1 - share) * (lexicalScore.get(entry.name) ?? 0) + share * Math.max(0, similarity);
    if (score > 0) hits.push({ name: entry.name, score });
  });
  hits.sort((left, right) => right.score - left.score || left.name.localeCompare(right.name));
  return hits.slice(0, options.limit ?? 10);
}
