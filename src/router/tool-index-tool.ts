import type { ServerState } from '../mcp/hub-types.js';
import type { ToolRegistry } from '../pipeline/tool-registry.js';
import type { Caller } from '../tool/call-context.js';
import type { JsonSchemaObject, Tool, ToolContext } from '../tool/tool.js';
import { classifyRouterError, routerError } from './error-taxonomy.js';
import { flagGetter } from './router-options.js';
import { errorOutcome, type RouterFormat, renderRouterResult } from './router-result.js';
import type { SearchTuning } from './search/search-tuning.js';
import type { SemanticSearchOptions } from './search/semantic-search.js';
import { ToolIndexCatalog, type ToolIndexSnapshot } from './tool-index-catalog.js';
import {
  FULL_DESCRIPTION_CHARS,
  SHORT_DESCRIPTION_CHARS,
  toolCategory,
  toolIndexEntry,
  toolReadOnly,
} from './tool-index-entry.js';
import {
  decodeToolIndexCursor,
  encodeToolIndexCursor,
  queryFingerprint,
  takePage,
} from './tool-index-page.js';
import { ToolIndexRanker } from './tool-index-ranking.js';

/** Default response budget of `tool_index`: one call stays well under 10k tokens. */
export const DEFAULT_TOOL_INDEX_MAX_BYTES = 32 * 1024;

/** Options of {@link createToolIndexTool}. */
export interface ToolIndexToolOptions {
  /** Exposed name. Default `tool_index`. */
  name?: string;
  /** Byte budget of one response; past it the list is cut at a whole entry with a cursor. Default 32 KiB. */
  maxResponseBytes?: number;
  /** Results of a search when `limit` is not given. Default 10. */
  defaultSearchLimit?: number;
  /** Longest compact-tier description. Default 160 characters. */
  descriptionChars?: number;
  /** Longest full-tier description. Default 1,000 characters. */
  fullDescriptionChars?: number;
  /** Context for registry factories. */
  context?: ToolContext;
  /** `json` (default) or the compact two-line format. */
  format?: RouterFormat;
  /** Plan mode: only read-only tools are listed. A function is read on every call. */
  planMode?: boolean | (() => boolean);
  /** When `false`, `ownerOnly` tools are not listed. A function is read on every call. Default `true`. */
  senderIsOwner?: boolean | ((caller?: Caller) => boolean);
  /** Whether the call's caller may see a tool (read inside each call); unseen tools are not listed. */
  toolVisible?: (tool: Tool, caller?: Caller) => boolean;
  /** Ranking knobs; the measured defaults otherwise. */
  tuning?: SearchTuning;
  /** Fuse the lexical ranking with an embedding model's similarity. Off by default. */
  semantic?: SemanticSearchOptions;
  /** The state of an MCP server, so that the tools of one that is not connected are marked. */
  serverState?: (server: string) => ServerState | undefined;
}

interface ToolIndexArguments {
  search?: string;
  category?: string;
  server?: string;
  include_schemas?: boolean;
  limit?: number;
  cursor?: string;
}

const parameters: JsonSchemaObject = {
  type: 'object',
  properties: {
    search: { type: 'string', description: 'What you want to do, in any language; results are ranked.' },
    category: { type: 'string', description: 'Only this category (server, plugin or native group).' },
    server: { type: 'string', description: 'Only tools of this server.' },
    include_schemas: { type: 'boolean', description: 'Add each input_schema (default false).' },
    limit: { type: 'integer', minimum: 1, description: 'Most tools to return (search default 10).' },
    cursor: { type: 'string', description: 'next_cursor from a previous call.' },
  },
  additionalProperties: false,
};

function parseArguments(params: Record<string, unknown>): ToolIndexArguments | string {
  const parsed: ToolIndexArguments = {};
  for (const key of ['search', 'category', 'server', 'cursor'] as const) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') return `${key} must be a string`;
    parsed[key] = value;
  }
  if (params.include_schemas !== undefined && params.include_schemas !== null) {
    if (typeof params.include_schemas !== 'boolean') return 'include_schemas must be a boolean';
    parsed.include_schemas = params.include_schemas;
  }
  if (params.limit !== undefined && params.limit !== null) {
    if (typeof params.limit !== 'number' || !Number.isInteger(params.limit) || params.limit < 1) {
      return 'limit must be a positive integer';
    }
    parsed.limit = params.limit;
  }
  const unknown = Object.keys(params).filter((key) => !(key in (parameters.properties ?? {})));
  if (unknown.length > 0) return `unknown argument ${unknown.join(', ')}`;
  return parsed;
}

/**
 * The `tool_index` meta-tool: one discovery entry point over every enabled tool
 * in the registry — MCP, native and plugin — with a compact tier by default and full input
 * schemas on request, ranked search, category/server filters, and a byte budget with a
 * cursor. The response states the catalog's size in tools and o200k tokens per tier.
 *
 * @example
 * const toolIndex = createToolIndexTool(registry);
 * await toolIndex.execute('1', { search: 'read a file', include_schemas: true, limit: 3 });
 */
export function createToolIndexTool(registry: ToolRegistry, options: ToolIndexToolOptions = {}): Tool {
  const name = options.name ?? 'tool_index';
  const budget = options.maxResponseBytes ?? DEFAULT_TOOL_INDEX_MAX_BYTES;
  const caps = {
    compact: options.descriptionChars ?? SHORT_DESCRIPTION_CHARS,
    full: options.fullDescriptionChars ?? FULL_DESCRIPTION_CHARS,
  };
  const format = options.format ?? 'json';
  const inPlanMode = flagGetter(options.planMode, false);
  const senderIsOwner = flagGetter<[Caller | undefined]>(options.senderIsOwner, true);
  const ranker = new ToolIndexRanker(options.semantic);
  const catalog = new ToolIndexCatalog(registry, {
    exclude: new Set([name]),
    caps,
    ...(options.context === undefined ? {} : { context: options.context }),
    ...(options.tuning === undefined ? {} : { tuning: options.tuning }),
  });

  return {
    name,
    label: 'Tool index',
    description:
      'Find tools to use. Lists every available tool compactly (name, short description, category); ' +
      '`search` ranks them for a task; `include_schemas` adds input schemas. Page with `cursor`.',
    parameters,
    source: 'router',
    category: 'router',
    readOnly: true,
    async execute(_toolCallId, params, _signal, _onUpdate, context) {
      const caller = context?.caller;
      const startedAt = performance.now();
      const parsed = parseArguments(params ?? {});
      if (typeof parsed === 'string') {
        return renderRouterResult(errorOutcome(routerError('INVALID_ARGUMENTS', parsed)), format, startedAt);
      }
      let snapshot: ToolIndexSnapshot;
      try {
        snapshot = await catalog.current();
      } catch (error) {
        // Tool failures are results, never throws into the agent loop.
        return renderRouterResult(errorOutcome(classifyRouterError(error)), format, startedAt);
      }
      ranker.prepare(snapshot.entries);
      const plan = inPlanMode();
      const owner = senderIsOwner(caller);
      const sees = options.toolVisible;
      const filtered = plan || !owner || sees !== undefined;
      const visible = filtered
        ? snapshot.tools.filter(
            (tool) =>
              (!plan || toolReadOnly(tool) === true) &&
              (owner || tool.ownerOnly !== true) &&
              (sees === undefined || sees(tool, caller)),
          )
        : snapshot.tools;
      const search = parsed.search?.trim() ?? '';
      const includeSchemas = parsed.include_schemas ?? false;
      const fingerprint = queryFingerprint([
        search,
        parsed.category,
        parsed.server,
        includeSchemas,
        plan,
        owner,
      ]);
      let offset = 0;
      if (parsed.cursor !== undefined) {
        const cursor = decodeToolIndexCursor(parsed.cursor);
        if (!cursor || cursor.query !== fingerprint) {
          const message = 'cursor is not a next_cursor of this query';
          return renderRouterResult(
            errorOutcome(routerError('INVALID_ARGUMENTS', message)),
            format,
            startedAt,
          );
        }
        offset = cursor.offset;
      }
      const categories = filtered ? countCategories(visible) : snapshot.categories;
      const tokens = await snapshot.tokens(filtered ? visible : undefined);
      const base: Record<string, unknown> = {
        // A caller who may not see every tool is not told how many there are.
        catalog: {
          tools: sees === undefined ? snapshot.tools.length : visible.length,
          tokens_compact: tokens.compact,
          tokens_full: tokens.full,
        },
        categories,
        ...(plan ? { plan_mode: true } : {}),
      };
      let hint = unknownFilterHint(parsed, categories, visible);
      let results: readonly Tool[];
      let warning: string | undefined;
      if (hint !== undefined) {
        results = [];
      } else if (search.length > 0) {
        const byName = new Map(visible.map((tool) => [tool.name, tool]));
        const ranking = await ranker.rank(snapshot, search, {
          ...(parsed.category === undefined ? {} : { category: parsed.category }),
          ...(parsed.server === undefined ? {} : { server: parsed.server }),
        });
        warning = ranking.warning;
        results = ranking.hits
          .map((hit) => byName.get(hit.name))
          .filter((tool): tool is Tool => tool !== undefined);
        if (results.length === 0)
          hint = `No tool matched "${search}". Name the action and its object ("read file", "send message"), or list a category.`;
      } else {
        results = visible.filter(
          (tool) =>
            (parsed.category === undefined || toolCategory(tool) === parsed.category) &&
            (parsed.server === undefined || tool.server === parsed.server),
        );
      }
      const limit =
        parsed.limit ?? (search.length > 0 ? (options.defaultSearchLimit ?? 10) : Number.MAX_SAFE_INTEGER);
      const placeholderCursor = encodeToolIndexCursor({ offset: results.length, query: fingerprint });
      const overhead = Buffer.byteLength(
        JSON.stringify({
          tools: [],
          count: 0,
          total: results.length,
          truncated: true,
          next_cursor: placeholderCursor,
          ...base,
          ...(hint ? { hint } : {}),
          ...(warning ? { warning } : {}),
        }),
        'utf8',
      );
      const page = takePage(
        results.length,
        (index) => {
          const tool = results[index]!;
          const state =
            tool.source === 'mcp' && tool.server !== undefined
              ? options.serverState?.(tool.server)
              : undefined;
          return toolIndexEntry(tool, includeSchemas, caps, state);
        },
        offset,
        limit,
        budget,
        overhead,
      );
      const payload: Record<string, unknown> = {
        tools: page.entries,
        count: page.entries.length,
        total: results.length,
        truncated: page.truncated,
        ...(page.nextOffset === undefined
          ? {}
          : { next_cursor: encodeToolIndexCursor({ offset: page.nextOffset, query: fingerprint }) }),
        ...base,
        ...(hint === undefined ? {} : { hint }),
        ...(warning === undefined ? {} : { warning }),
      };
      const summary = `tool index: ${page.entries.length} of ${results.length} tools${search ? ` for "${search}"` : ''}`;
      return renderRouterResult(
        { state: page.truncated ? 'partial' : 'success', summary, payload },
        format,
        startedAt,
      );
    },
  };
}

function countCategories(tools: readonly Tool[]): { name: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const tool of tools) counts.set(toolCategory(tool), (counts.get(toolCategory(tool)) ?? 0) + 1);
  return [...counts].map(([category, count]) => ({ name: category, count }));
}

/** A hint naming what exists when `category` or `server` names nothing. */
function unknownFilterHint(
  parsed: ToolIndexArguments,
  categories: readonly { name: string }[],
  tools: readonly Tool[],
): string | undefined {
  if (parsed.category !== undefined && !categories.some((category) => category.name === parsed.category)) {
    return `Unknown category "${parsed.category}". Categories: ${categories.map((category) => category.name).join(', ')}`;
  }
  if (parsed.server !== undefined && !tools.some((tool) => tool.server === parsed.server)) {
    const servers = [...new Set(tools.map((tool) => tool.server).filter((server) => server !== undefined))];
    return `Unknown server "${parsed.server}". Servers: ${servers.join(', ') || '(none)'}`;
  }
  return undefined;
}
