import { createHash } from 'node:crypto';
import { type EmbedBatchOptions, embedAll } from './embed-batches.js';

/** Where tool vectors outlive the process, looked up by {@link embeddingKey} of the embedded text. */
export interface EmbeddingCache {
  /** The stored unit vector of each key, or `undefined`. */
  get(keys: readonly string[]): Promise<(Float32Array | undefined)[]>;
  /** Stores unit vectors by key. */
  set(entries: readonly { key: string; vector: Float32Array }[]): Promise<void>;
}

/** The cache key of an embedded text: a hash, so the cache holds no tool text. */
export function embeddingKey(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 32);
}

/**
 * Unit vectors of tool texts, taken from `options.cache` where it holds them and embedded
 * (then stored) where it does not. A cache that fails is passed over, and so are vectors of
 * another length than the model's: they were made by another model.
 */
export async function embedDocuments(
  texts: string[],
  options: EmbedBatchOptions & { cache?: EmbeddingCache },
  dimensions: number | undefined,
): Promise<Float32Array[]> {
  const cache = options.cache;
  if (!cache) return embedAll(texts, 'document', options, dimensions);
  const keys = texts.map(embeddingKey);
  const cached = await cache.get(keys).catch(() => [] as (Float32Array | undefined)[]);
  const lengths = new Set(cached.flatMap((vector) => (vector && vector.length > 0 ? [vector.length] : [])));
  const usable =
    lengths.size === 1 && (dimensions === undefined || lengths.has(dimensions)) ? [...lengths][0] : undefined;
  const vectors = texts.map((_text, index) =>
    usable !== undefined && cached[index]?.length === usable ? cached[index] : undefined,
  );
  const missing = vectors.flatMap((vector, index) => (vector === undefined ? [index] : []));
  if (missing.length === 0) return vectors as Float32Array[];
  const fresh = await embedAll(
    missing.map((index) => texts[index]!),
    'document',
    options,
    dimensions,
  );
  if (usable !== undefined && fresh[0]!.length !== usable) {
    // The model changed under the same cache: none of its vectors can be mixed with the new ones.
    const all = await embedAll(texts, 'document', options, fresh[0]!.length);
    await store(cache, keys, all);
    return all;
  }
  missing.forEach((index, position) => {
    vectors[index] = fresh[position];
  });
  await store(
    cache,
    missing.map((index) => keys[index]!),
    fresh,
  );
  return vectors as Float32Array[];
}

async function store(cache: EmbeddingCache, keys: string[], vectors: Float32Array[]): Promise<void> {
  // Awaited so a process that exits after one search keeps its vectors; a failure only costs time.
  await cache.set(keys.map((key, index) => ({ key, vector: vectors[index]! }))).catch(() => {});
}
