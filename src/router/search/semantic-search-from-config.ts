import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { SemanticSearchConfig } from '../../config/config-types.js';
import { fileEmbeddingCache } from './file-embedding-cache.js';
import { openAIEmbeddings } from './openai-embeddings.js';
import type { SemanticSearchOptions } from './semantic-search.js';

/**
 * The cache file of one endpoint and model in `cacheDir`: the model's name for people, a hash
 * of everything that changes the vectors (URL without its query, model, dimensions, document
 * prefix) so two models never share a file.
 */
function cacheFile(config: SemanticSearchConfig, cacheDir: string): string {
  let endpoint = config.url;
  try {
    const url = new URL(config.url);
    endpoint = `${url.origin}${url.pathname}`;
  } catch {
    // The schema has checked the URL; keep the text as it is otherwise.
  }
  const identity = JSON.stringify([endpoint, config.model, config.dimensions, config.documentPrefix ?? '']);
  const hash = createHash('sha256').update(identity).digest('hex').slice(0, 12);
  const readable = config.model.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60);
  return join(cacheDir, `${readable}-${hash}.json`);
}

/**
 * The semantic search `router.semanticSearch` configures: its endpoint as the embedder, its
 * weight, batch size and wait, and a vector cache file in `cacheDir` when one is set.
 */
export function semanticSearchFromConfig(
  config: SemanticSearchConfig | undefined,
): SemanticSearchOptions | undefined {
  if (config === undefined) return undefined;
  const { weight, batchSize, waitMs, cacheDir, ...endpoint } = config;
  return {
    embed: openAIEmbeddings(endpoint),
    ...(weight !== undefined ? { weight } : {}),
    ...(batchSize !== undefined ? { batchSize } : {}),
    ...(waitMs !== undefined ? { waitMs } : {}),
    ...(cacheDir !== undefined ? { cache: fileEmbeddingCache(cacheFile(config, cacheDir)) } : {}),
  };
}
