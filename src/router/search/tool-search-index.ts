import { analyzeText } from './analyze-text.js';
import { analyzeTool, buildPostings } from './bm25f-postings.js';
import { queryTermGroups } from './query-terms.js';
import { DEFAULT_SEARCH_TUNING, type SearchTuning } from './search-tuning.js';
import type { SearchableTool } from './searchable-tool.js';
import { buildServerMentions } from './server-mentions.js';
import type { ToolAnalysisCache } from './tool-analysis-cache.js';
import { Vocabulary } from './vocabulary.js';

/** Options of one {@link ToolSearchIndex.search} call. */
export interface ToolSearchOptions {
  /** Most hits returned. Default 10. */
  limit?: number;
  /** Only tools of this category. */
  category?: string;
  /** Only tools of this server. */
  server?: string;
}

/** One ranked hit. */
export interface ToolSearchHit {
  name: string;
  score: number;
}

/** A built, immutable search index over a tool catalog. */
export interface ToolSearchIndex {
  /** Ranked tools for `query`, best first; tools that match no query word are left out. */
  search(query: string, options?: ToolSearchOptions): ToolSearchHit[];
  /**
   * What a tool matching every word of `query` itself would score (at saturation, phrases
   * and the server and deprecation factors left out; a word no tool holds counts as the
   * rarest word): divides
   * scores into a 0–1 scale of how much of the request a tool matched, for fusion.
   */
  scoreBound(query: string): number;
  /** Number of tools indexed. */
  readonly size: number;
}

const DEPRECATED_FOR = /\bdeprecated\b[\s:.,;-]*(?:please\s+)?use\b/i;

/**
 * Builds a field-weighted BM25F index over `entries`: identifier-aware tokenization,
 * Porter stemming, stop words, synonym, prefix and typo expansion, and translation of
 * common non-English words. Everything query-independent is computed here, so a search
 * touches only the postings of the query's terms.
 *
 * @example
 * const index = createToolSearchIndex([{ name: 'read_file', description: 'Read a file' }]);
 * index.search('open a document', { limit: 5 }); // [{ name: 'read_file', score: … }]
 */
export function createToolSearchIndex(
  entries: readonly SearchableTool[],
  tuning: SearchTuning = DEFAULT_SEARCH_TUNING,
  cache?: ToolAnalysisCache,
): ToolSearchIndex {
  const analyzed = entries.map((entry) => cache?.get(entry, tuning) ?? analyzeTool(entry, tuning));
  const postings = buildPostings(analyzed, tuning.fieldWeights, tuning.lengthNormalization);
  const vocabulary = new Vocabulary([...postings.keys()].filter((term) => !term.includes(' ')));
  const known = (term: string) => postings.has(term);
  const mentions = buildServerMentions(
    entries.map((entry) => entry.server),
    analyzed,
  );
  const scores = new Float64Array(entries.length);
  const lastGroup = new Int32Array(entries.length);
  const groupBest = new Float64Array(entries.length);
  const k1 = tuning.k1;
  // A tool deprecated in favour of another (`DEPRECATED: Use read_text_file instead`) should
  // lose to its replacement, not tie with it.
  const factor = entries.map((entry) =>
    DEPRECATED_FOR.test(entry.description) ? tuning.deprecatedFactor : 1,
  );

  /** Scores of every tool that matches a term of `query`, by tool position. */
  const score = (query: string): Map<number, number> => {
    const groups = queryTermGroups(query, known, vocabulary, tuning, (term) => mentions.has(term));
    scores.fill(0);
    lastGroup.fill(-1);
    const touched: number[] = [];
    groups.forEach((group, groupIndex) => {
      // A query word counts once per tool: the best of the word and its expansions, so a tool
      // that happens to hold three synonyms does not outscore one that holds the word.
      const groupDocs: number[] = [];
      for (const { term, weight } of group) {
        const posting = postings.get(term);
        if (!posting) continue;
        for (let index = 0; index < posting.docs.length; index++) {
          const doc = posting.docs[index]!;
          const tf = posting.weights[index]!;
          const value = weight * posting.idf * ((tf * (k1 + 1)) / (tf + k1));
          if (lastGroup[doc] !== groupIndex) {
            lastGroup[doc] = groupIndex;
            groupBest[doc] = value;
            groupDocs.push(doc);
          } else if (value > groupBest[doc]!) {
            groupBest[doc] = value;
          }
        }
      }
      for (const doc of groupDocs) {
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] = scores[doc]! + groupBest[doc]!;
      }
    });
    return new Map(touched.map((doc) => [doc, scores[doc]!]));
  };

  return {
    size: entries.length,
    scoreBound(query) {
      const rarest = Math.log(1 + (entries.length - 0.5) / 1.5);
      let bound = 0;
      for (const group of queryTermGroups(query, known, vocabulary, tuning, (term) => mentions.has(term))) {
        // A phrase is a bonus on top of its words, not one more word to match.
        if (group.some(({ term }) => term.includes(' '))) continue;
        let best = 0;
        for (const { term, weight } of group)
          best = Math.max(best, weight * (postings.get(term)?.idf ?? rarest));
        bound += best * (k1 + 1);
      }
      return bound;
    },
    search(query, options = {}) {
      const limit = options.limit ?? 10;
      if (limit <= 0 || entries.length === 0) return [];
      // A request that names a product (`in Slack`, `on GitLab`) wants that server's tools.
      const mentioned = new Set<string>();
      if (tuning.serverMentionBoost > 0) {
        for (const term of analyzeText(query))
          for (const server of mentions.get(term) ?? []) mentioned.add(server);
      }
      const hits: { doc: number; score: number }[] = [];
      for (const [doc, value] of score(query)) {
        const entry = entries[doc]!;
        if (options.category !== undefined && entry.category !== options.category) continue;
        if (options.server !== undefined && entry.server !== options.server) continue;
        const named = entry.server !== undefined && mentioned.has(entry.server);
        const lifted = named ? value * (1 + tuning.serverMentionBoost) : value;
        hits.push({ doc, score: lifted * factor[doc]! });
      }
      hits.sort(
        (left, right) =>
          right.score - left.score || entries[left.doc]!.name.localeCompare(entries[right.doc]!.name),
      );
      return hits.slice(0, limit).map((hit) => ({ name: entries[hit.doc]!.name, score: hit.score }));
    },
  };
}
