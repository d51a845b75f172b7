import { analyzeTool, buildPostings, type Posting } from './bm25f-postings.js';
import { queryTermGroups, splitClauses, type WeightedTerm } from './query-terms.js';
import { DEFAULT_SEARCH_TUNING, type SearchTuning } from './search-tuning.js';
import { buildServerContext } from './server-context.js';
import type { SearchableTool } from './searchable-tool.js';
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
  /** Number of tools indexed. */
  readonly size: number;
}

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
): ToolSearchIndex {
  const analyzed = entries.map((entry) => analyzeTool(entry, tuning));
  const postings = buildPostings(analyzed, tuning.fieldWeights, tuning.lengthNormalization);
  const vocabulary = new Vocabulary(postings.keys());
  const known = (term: string) => postings.has(term);
  const servers = entries.map((entry) => entry.server);
  const context = tuning.serverContextWeight > 0 ? buildServerContext(servers, analyzed) : undefined;
  const scores = new Float64Array(entries.length);
  const matchedGroups = new Float64Array(entries.length);
  const lastGroup = new Int32Array(entries.length);
  const groupBest = new Float64Array(entries.length);
  const k1 = tuning.k1;

  const saturated = (posting: Posting, index: number, weight: number) => {
    const tf = posting.weights[index]!;
    return weight * posting.idf * ((tf * (k1 + 1)) / (tf + k1));
  };

  const serverScores = (groups: WeightedTerm[][]): Float64Array | undefined => {
    if (!context) return undefined;
    const totals = new Float64Array(context.size);
    for (const group of groups) {
      for (const { term, weight } of group) {
        const posting = context.postings.get(term);
        if (!posting) continue;
        for (let index = 0; index < posting.docs.length; index++) {
          totals[posting.docs[index]!] = totals[posting.docs[index]!]! + saturated(posting, index, weight);
        }
      }
    }
    return totals;
  };

  /** Scores of every tool that matches a term of `text`. */
  const score = (text: string): Map<number, number> => {
    const groups = queryTermGroups(text, known, vocabulary, tuning);
    scores.fill(0);
    matchedGroups.fill(0);
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
          const value = saturated(posting, index, weight);
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
        matchedGroups[doc] = matchedGroups[doc]! + 1;
      }
    });
    const byServer = serverScores(groups);
    const result = new Map<number, number>();
    for (const doc of touched) {
      const coverage = groups.length > 0 ? matchedGroups[doc]! / groups.length : 0;
      let value = scores[doc]! * (1 + tuning.coverageBoost * coverage);
      const serverIndex = context?.serverOf[doc] ?? -1;
      if (byServer && serverIndex >= 0) value += tuning.serverContextWeight * byServer[serverIndex]!;
      result.set(doc, value);
    }
    return result;
  };

  /** A multi-step request also ranks each step on its own, so every step's tool can reach the top. */
  const fusedScore = (query: string): Map<number, number> => {
    const whole = score(query);
    const clauses = tuning.clauseWeight > 0 ? splitClauses(query) : [];
    if (clauses.length < 2) return whole;
    const fused = normalized(whole);
    for (const clause of clauses) {
      for (const [doc, value] of normalized(score(clause))) {
        fused.set(doc, (fused.get(doc) ?? 0) + tuning.clauseWeight * value);
      }
    }
    return fused;
  };

  return {
    size: entries.length,
    search(query, options = {}) {
      const limit = options.limit ?? 10;
      if (limit <= 0 || entries.length === 0) return [];
      const hits: { doc: number; score: number }[] = [];
      for (const [doc, value] of fusedScore(query)) {
        const entry = entries[doc]!;
        if (options.category !== undefined && entry.category !== options.category) continue;
        if (options.server !== undefined && entry.server !== options.server) continue;
        hits.push({ doc, score: value });
      }
      const byScore = (left: { doc: number; score: number }, right: { doc: number; score: number }) =>
        right.score - left.score || entries[left.doc]!.name.localeCompare(entries[right.doc]!.name);
      hits.sort(byScore);
      if (tuning.serverDiversity < 1) {
        // Each further tool of a server already ranked counts a little less: a request that
        // spans several servers gets each of them near the top.
        const seen = new Map<string | undefined, number>();
        for (const hit of hits) {
          const server = entries[hit.doc]!.server;
          const count = seen.get(server) ?? 0;
          if (server !== undefined) seen.set(server, count + 1);
          hit.score *= tuning.serverDiversity ** count;
        }
        hits.sort(byScore);
      }
      return hits.slice(0, limit).map((hit) => ({ name: entries[hit.doc]!.name, score: hit.score }));
    },
  };
}

function normalized(scores: Map<number, number>): Map<number, number> {
  let max = 0;
  for (const value of scores.values()) max = Math.max(max, value);
  if (max === 0) return new Map();
  return new Map([...scores].map(([doc, value]) => [doc, value / max]));
}
