/**
 * Turns texts into vectors with any embedding model: one vector per text, all of one
 * length. `kind` lets models that embed queries and documents differently (`query:` /
 * `passage:` prefixes, input types) do so.
 */
export type EmbedTexts = (texts: string[], kind: 'query' | 'document') => Promise<ArrayLike<number>[]>;

/** What embedding in batches needs of the semantic search options. */
export interface EmbedBatchOptions {
  embed: EmbedTexts;
  /** Most texts per `embed` call. Default 64. */
  batchSize?: number;
}

/** `values` scaled to length 1, checked: not empty, `dimensions` long, finite. */
export function unitVector(values: ArrayLike<number>, dimensions: number): Float32Array {
  if (values.length === 0) throw new Error('embed returned an empty vector');
  if (values.length !== dimensions)
    throw new Error(`embed returned a vector of ${values.length} numbers, expected ${dimensions}`);
  const vector = Float32Array.from(values);
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  if (!Number.isFinite(norm)) throw new Error('embed returned a vector that is not finite');
  if (norm > 0) for (let index = 0; index < vector.length; index++) vector[index]! /= norm;
  return vector;
}

/** Embeds `texts` in batches of `options.batchSize`, as unit vectors, all `dimensions` long (the first one's length when unset). */
export async function embedAll(
  texts: string[],
  kind: 'query' | 'document',
  options: EmbedBatchOptions,
  dimensions: number | undefined,
): Promise<Float32Array[]> {
  const batchSize = Math.max(1, options.batchSize ?? 64);
  const vectors: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += batchSize) {
    const batch = texts.slice(start, start + batchSize);
    const embedded = await options.embed(batch, kind);
    if (!Array.isArray(embedded) || embedded.length !== batch.length)
      throw new Error(
        `embed returned ${Array.isArray(embedded) ? embedded.length : 'no'} vectors for ${batch.length} texts`,
      );
    for (const values of embedded) {
      dimensions ??= values.length;
      vectors.push(unitVector(values, dimensions));
    }
  }
  return vectors;
}
