import type { ToolRegistry } from '../pipeline/tool-registry.js';
import type { Tool, ToolContext } from '../tool/tool.js';
import { DEFAULT_SEARCH_TUNING, type SearchTuning } from './search/search-tuning.js';
import type { SearchableTool } from './search/searchable-tool.js';
import { ToolAnalysisCache } from './search/tool-analysis-cache.js';
import { createToolSearchIndex, type ToolSearchIndex } from './search/tool-search-index.js';
import { countTokens } from './token-count.js';
import { type DescriptionCaps, toolCategory, toolIndexEntry } from './tool-index-entry.js';

/** A category and how many tools it holds. */
export interface CategoryCount {
  name: string;
  count: number;
}

/** One consistent view of the registry for `tool_index`, with lazily built search and token counts. */
export interface ToolIndexSnapshot {
  /** Enabled tools in catalog order, router tools excluded. */
  tools: readonly Tool[];
  /** What the search knows of each tool, in the same order (stable objects per tool). */
  entries: readonly SearchableTool[];
  categories: readonly CategoryCount[];
  /** The search index, built on first use. */
  searchIndex(): ToolSearchIndex;
  /**
   * o200k tokens of the whole catalog in each tier, counted on first use; given `visible` (the
   * part of `tools` a caller may see, in catalog order), of that part, counted once per distinct part.
   */
  tokens(visible?: readonly Tool[]): Promise<{ compact: number; full: number }>;
}

/** Distinct visible parts whose counts one snapshot keeps (callers of one gateway see few). */
const MAX_PART_COUNTS = 32;

/** Options of {@link ToolIndexCatalog}. */
export interface ToolIndexCatalogOptions {
  /** Context for registry factories. */
  context?: ToolContext;
  /** Names never listed (the index tool itself). */
  exclude?: ReadonlySet<string>;
  tuning?: SearchTuning;
  /** Description caps of the tiers, so token counts match what responses show. */
  caps?: DescriptionCaps;
}

/** Stable search entries for registry tools, so the analysis cache recognizes unchanged tools. */
const searchEntries = new WeakMap<Tool, SearchableTool>();

function searchEntry(tool: Tool): SearchableTool {
  let entry = searchEntries.get(tool);
  if (!entry) {
    entry = {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      category: toolCategory(tool),
      ...(tool.server === undefined ? {} : { server: tool.server }),
      ...(tool.originalName === undefined ? {} : { originalName: tool.originalName }),
    };
    searchEntries.set(tool, entry);
  }
  return entry;
}

function snapshotOf(
  tools: Tool[],
  tuning: SearchTuning,
  caps: DescriptionCaps,
  cache: ToolAnalysisCache,
): ToolIndexSnapshot {
  const counts = new Map<string, number>();
  for (const tool of tools) counts.set(toolCategory(tool), (counts.get(toolCategory(tool)) ?? 0) + 1);
  let index: ToolSearchIndex | undefined;
  let tokens: Promise<{ compact: number; full: number }> | undefined;
  let parts: Map<string, Promise<{ compact: number; full: number }>> | undefined;
  const entries = tools.map(searchEntry);
  // The exact count of what a listing of these tools would hold, tier by tier (about 0.1 s for
  // 979 tools): once per registry change for the whole catalog, never per call.
  const count = (listed: readonly Tool[]) =>
    Promise.all([
      countTokens(JSON.stringify(listed.map((tool) => toolIndexEntry(tool, false, caps)))),
      countTokens(JSON.stringify(listed.map((tool) => toolIndexEntry(tool, true, caps)))),
    ]).then(([compact, full]) => ({ compact, full }));
  return {
    tools,
    entries,
    categories: [...counts].map(([name, count]) => ({ name, count })),
    searchIndex() {
      index ??= createToolSearchIndex(entries, tuning, cache);
      return index;
    },
    tokens(visible) {
      if (visible === undefined || visible.length === tools.length) {
        tokens ??= count(tools);
        return tokens;
      }
      // A caller who sees part of the catalog is told the size of that part only.
      parts ??= new Map();
      const key = visible.map((tool) => tool.name).join('\n');
      let counted = parts.get(key);
      if (counted === undefined) {
        if (parts.size >= MAX_PART_COUNTS) parts.delete(parts.keys().next().value!);
        counted = count(visible);
        parts.set(key, counted);
      }
      return counted;
    },
  };
}

/**
 * Keeps a snapshot of the registry's enabled tools for `tool_index` and throws it away when
 * the registry emits a change: the next call resolves the tools again and rebuilds the
 * search index and token counts. The search index reuses the analysis of tools that did
 * not change (cached per tool object), so a rebuild after one server's tools change only
 * analyzes that server's tools.
 */
export class ToolIndexCatalog {
  readonly #registry: ToolRegistry;
  readonly #options: ToolIndexCatalogOptions;
  readonly #analysis = new ToolAnalysisCache();
  #version = 0;
  #snapshot: { version: number; value: Promise<ToolIndexSnapshot> } | undefined;
  readonly #unsubscribe: () => void;

  constructor(registry: ToolRegistry, options: ToolIndexCatalogOptions = {}) {
    this.#registry = registry;
    this.#options = options;
    // The registry outlives any one tool_index: hold the catalog weakly so that a dropped
    // tool (and its snapshot of every tool) can be collected, and unsubscribe once it is.
    const self = new WeakRef<ToolIndexCatalog>(this);
    const unsubscribe = registry.onChange(() => {
      const catalog = self.deref();
      if (catalog) catalog.#version++;
      else unsubscribe();
    });
    this.#unsubscribe = unsubscribe;
  }

  /** The snapshot of the registry as it is now, rebuilt only if it changed since the last call. */
  current(): Promise<ToolIndexSnapshot> {
    if (this.#snapshot?.version === this.#version) return this.#snapshot.value;
    const version = this.#version;
    const value = this.#build();
    this.#snapshot = { version, value };
    // A failed resolve must not stick: the next call tries again.
    value.catch(() => {
      if (this.#snapshot?.value === value) this.#snapshot = undefined;
    });
    return value;
  }

  /** Stops listening to the registry. */
  dispose(): void {
    this.#unsubscribe();
  }

  async #build(): Promise<ToolIndexSnapshot> {
    const exclude = this.#options.exclude ?? new Set<string>();
    const resolved = await this.#registry.resolveAll(this.#options.context ?? {});
    const tools = resolved.filter((tool) => tool.source !== 'router' && !exclude.has(tool.name));
    return snapshotOf(
      tools,
      this.#options.tuning ?? DEFAULT_SEARCH_TUNING,
      this.#options.caps ?? {},
      this.#analysis,
    );
  }
}
