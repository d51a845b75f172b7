import { validateArguments } from '../tool/argument-validator.js';
import type { JsonSchemaObject, Tool, ToolResult } from '../tool/tool.js';
import type { AgentCatalog } from './agent-catalog.js';

/** Default and most results `find_server` returns. */
const DEFAULT_RESULTS = 10;
const MAX_RESULTS = 25;

/** The arguments, checked before the registry is asked. */
const PARAMETERS: JsonSchemaObject = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, maxLength: 200, description: 'Part of the server name' },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_RESULTS,
      description: `At most this many (default ${DEFAULT_RESULTS})`,
    },
  },
  required: ['query'],
  additionalProperties: false,
};

const text = (body: string, isError = false): ToolResult => ({
  content: [{ type: 'text', text: body }],
  ...(isError ? { isError: true } : {}),
});

/**
 * `find_server`: searches the configured registries (MCP Registry `v0.1`) for servers whose name
 * contains the query, and shows each one's version, description, status and what it runs as.
 * Owner-only; its calls go through the tool-call pipeline like any tool's (the gateway asks the
 * person to approve each: the query leaves this machine).
 */
export function createFindServerTool(catalog: AgentCatalog, name = 'find_server'): Tool {
  return {
    name,
    label: 'Find an MCP server',
    description:
      'Search the MCP server registry for servers whose name contains the query. Returns name, version, description, status and whether each runs as a package or a remote. Add one with add_server.',
    parameters: PARAMETERS,
    source: 'native',
    category: 'catalog',
    ownerOnly: true,
    readOnly: true,
    annotations: { readOnlyHint: true, openWorldHint: true },
    async execute(_toolCallId, params, signal) {
      const invalid = validateArguments(PARAMETERS, params ?? {});
      if (invalid) return text(`invalid arguments: ${invalid.message}`, true);
      const query = String(params.query ?? '').trim();
      if (query === '') return text('query must not be empty', true);
      const limit = typeof params.limit === 'number' ? params.limit : DEFAULT_RESULTS;
      try {
        const found = await catalog.search(query, { limit, ...(signal ? { signal } : {}) });
        return text(JSON.stringify({ servers: found.slice(0, limit) }, null, 2));
      } catch (error) {
        return text(
          `the registry search failed: ${error instanceof Error ? error.message : String(error)}`,
          true,
        );
      }
    },
  };
}
