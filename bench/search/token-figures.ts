import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { namespacedName } from '../../src/registry/tool-name.js';
import { countTokens } from '../../src/router/token-count.js';
import { createToolIndexTool } from '../../src/router/tool-index-tool.js';
import type { JsonSchemaObject, Tool } from '../../src/tool/tool.js';
import type { BenchQuery, BenchTool } from './load-bench-corpus.js';
import { quantile } from './search-metrics.js';

/** Token footprint of `tool_index` over a corpus (o200k). */
export interface TokenFigures {
  tools: number;
  catalogCompact: number;
  catalogFull: number;
  compactShareOfFull: number;
  top5WithSchemasMedian: number;
  top5WithSchemasP95: number;
  top5CompactMedian: number;
  toolIndexDefinition: number;
  catalogBuildMs: number;
}

/** Registers the corpus as native tools (as an agent's registry would hold MCP tools) and measures `tool_index`. */
export async function tokenFigures(
  corpus: readonly BenchTool[],
  queries: readonly BenchQuery[],
  verbose: boolean,
): Promise<TokenFigures> {
  const registry = new ToolRegistry();
  for (const tool of corpus) {
    const native: Tool = {
      name: namespacedName(tool.server, tool.originalName),
      description: tool.description,
      parameters: { type: 'object', ...tool.parameters } as JsonSchemaObject,
      server: tool.server,
      originalName: tool.originalName,
      category: tool.server,
      execute: async () => ({ content: [] }),
    };
    registry.register(native);
  }
  const toolIndex = createToolIndexTool(registry, { maxResponseBytes: 64 * 1024 * 1024 });
  const started = performance.now();
  const listing = (await toolIndex.execute('bench', {})).details as {
    catalog: { tools: number; tokens_compact: number; tokens_full: number };
  };
  const catalogBuildMs = performance.now() - started;
  const withSchemas: number[] = [];
  const compact: number[] = [];
  for (const query of queries) {
    const full = await toolIndex.execute('bench', { search: query.query, limit: 5, include_schemas: true });
    const short = await toolIndex.execute('bench', { search: query.query, limit: 5 });
    withSchemas.push(await countTokens(full.content[0]?.type === 'text' ? full.content[0].text : ''));
    compact.push(await countTokens(short.content[0]?.type === 'text' ? short.content[0].text : ''));
  }
  const definition = await countTokens(
    JSON.stringify({
      name: toolIndex.name,
      description: toolIndex.description,
      parameters: toolIndex.parameters,
    }),
  );
  const figures: TokenFigures = {
    tools: listing.catalog.tools,
    catalogCompact: listing.catalog.tokens_compact,
    catalogFull: listing.catalog.tokens_full,
    compactShareOfFull: listing.catalog.tokens_compact / listing.catalog.tokens_full,
    top5WithSchemasMedian: quantile(withSchemas, 0.5),
    top5WithSchemasP95: quantile(withSchemas, 0.95),
    top5CompactMedian: quantile(compact, 0.5),
    toolIndexDefinition: definition,
    catalogBuildMs,
  };
  if (verbose) {
    console.log(
      `tokens (o200k) over ${figures.tools} tools: compact tier ${figures.catalogCompact}, full tier ${figures.catalogFull} ` +
        `(compact = ${(figures.compactShareOfFull * 100).toFixed(1)}% of full); top-5 search response with schemas: ` +
        `median ${figures.top5WithSchemasMedian}, p95 ${figures.top5WithSchemasP95}; compact top-5 median ${figures.top5CompactMedian}; ` +
        `tool_index definition ${figures.toolIndexDefinition}; first listing (resolve + index + token counts) ${figures.catalogBuildMs.toFixed(0)} ms`,
    );
  }
  return figures;
}
