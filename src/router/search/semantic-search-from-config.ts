import type { SemanticSearchConfig } from '../../config/config-types.js';
import { openAIEmbeddings } from './openai-embeddings.js';
import type { SemanticSearchOptions } from './semantic-search.js';

/** The semantic search `router.semanticSearch` configures: its endpoint as the embedder, its weight, batch size and wait. */
export function semanticSearchFromConfig(
  config: SemanticSearchConfig | undefined,
): SemanticSearchOptions | undefined {
  if (config === undefined) return undefined;
  const { weight, batchSize, waitMs, ...endpoint } = config;
  return {
    embed: openAIEmbeddings(endpoint),
    ...(weight !== undefined ? { weight } : {}),
    ...(batchSize !== undefined ? { batchSize } : {}),
    ...(waitMs !== undefined ? { waitMs } : {}),
  };
}
