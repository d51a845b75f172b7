import { readFileSync } from 'node:fs';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { namespacedName } from '../../src/registry/tool-name.js';
import type { JsonSchemaObject, Tool } from '../../src/tool/tool.js';

/** One tool as an MCP server listed it (`tools/list`). */
export interface CorpusTool {
  server: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * 53 real tools, verbatim from the `tools/list` output of seven MCP server packages (the
 * toolcorpus of `bench/data`): filesystem, GitHub (first 12), Slack, memory, Brave
 * search, Google Maps, Postgres.
 */
export const CORPUS_TOOLS: CorpusTool[] = JSON.parse(
  readFileSync(new URL('./tool-index-corpus.json', import.meta.url), 'utf8'),
) as CorpusTool[];

/** A corpus tool as a native registry tool named `<server>__<tool>`; `execute` echoes its arguments. */
export function corpusTool(tool: CorpusTool): Tool {
  return {
    name: namespacedName(tool.server, tool.name),
    description: tool.description,
    parameters: { type: 'object', ...tool.inputSchema } as JsonSchemaObject,
    server: tool.server,
    originalName: tool.name,
    readOnly: /^(read|list|get|search|query|directory|maps|brave|open)/.test(
      tool.name.replace(/^slack_/, ''),
    ),
    execute: async (_id, params) => ({ content: [{ type: 'text', text: JSON.stringify(params) }] }),
  };
}

/** A registry holding every corpus tool. */
export function corpusRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of CORPUS_TOOLS) registry.register(corpusTool(tool));
  return registry;
}

/** A tool outside the corpus, to register after a catalog was built or embedded. */
export function rememberFactTool(): Tool {
  return {
    name: 'notes__remember_fact',
    description: 'Keep a fact in memory',
    parameters: { type: 'object' },
    execute: async () => ({ content: [] }),
  };
}
