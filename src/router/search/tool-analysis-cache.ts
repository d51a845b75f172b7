import { analyzeTool } from './bm25f-postings.js';
import type { SearchField, SearchTuning } from './search-tuning.js';
import type { SearchableTool } from './searchable-tool.js';

/**
 * Remembers the analyzed terms of each tool entry (by object identity), so rebuilding an
 * index after a registry change only analyzes the tools that are new.
 */
export class ToolAnalysisCache {
  readonly #terms = new WeakMap<
    SearchableTool,
    { tuning: SearchTuning; terms: Record<SearchField, string[]> }
  >();

  /** The terms of `entry`, analyzed now or remembered from an earlier build with the same tuning. */
  get(entry: SearchableTool, tuning: SearchTuning): Record<SearchField, string[]> {
    const cached = this.#terms.get(entry);
    if (cached?.tuning === tuning) return cached.terms;
    const terms = analyzeTool(entry, tuning);
    this.#terms.set(entry, { tuning, terms });
    return terms;
  }
}
