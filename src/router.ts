/**
 * `mcptools/router`: the router meta-tools (`tool_index`, `call_tool`, resources, prompts, code
 * mode) over a hub and a registry, and the tool search they use.
 */

export type { SemanticSearchConfig } from './config/config-types.js';
export { type CompactResult, type CompactState, formatCompact } from './router/compact-format.js';
export { createRouterTools } from './router/create-router-tools.js';
export {
  DEFAULT_LIST_MAX_RESOURCES,
  DEFAULT_READ_MAX_BYTES,
  DEFAULT_ROUTER_TOOL_NAMES,
  type RouterToolNames,
  type RouterToolsOptions,
} from './router/router-options.js';
export type { RouterFormat } from './router/router-result.js';
export type { EmbedTexts } from './router/search/embed-batches.js';
export { type EmbeddingCache, embeddingKey } from './router/search/embedding-cache.js';
export {
  type FileEmbeddingCacheOptions,
  fileEmbeddingCache,
} from './router/search/file-embedding-cache.js';
export { type OpenAIEmbeddingsOptions, openAIEmbeddings } from './router/search/openai-embeddings.js';
export { DEFAULT_SEARCH_TUNING, type SearchTuning } from './router/search/search-tuning.js';
export type { SearchableTool } from './router/search/searchable-tool.js';
export {
  DEFAULT_SEMANTIC_WAIT_MS,
  DEFAULT_SEMANTIC_WEIGHT,
  type SemanticSearchOptions,
} from './router/search/semantic-search.js';
export {
  createToolSearchIndex,
  type ToolSearchHit,
  type ToolSearchIndex,
  type ToolSearchOptions,
} from './router/search/tool-search-index.js';
export { countTokens } from './router/token-count.js';
export type { ToolIndexEntry } from './router/tool-index-entry.js';
export {
  createToolIndexTool,
  DEFAULT_TOOL_INDEX_MAX_BYTES,
  type ToolIndexToolOptions,
} from './router/tool-index-tool.js';
export { ownerOnlyFilter, planModeFilter } from './router/tool-policy-filters.js';
