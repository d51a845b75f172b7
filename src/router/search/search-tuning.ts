/** The fields of a tool that BM25F scores. */
export type SearchField = 'name' | 'server' | 'description' | 'parameters';

/** The knobs of the ranking; {@link DEFAULT_SEARCH_TUNING} holds the values measured best on `bench/`. */
export interface SearchTuning {
  /** Weight of a term occurrence in each field. */
  fieldWeights: Record<SearchField, number>;
  /** Length normalization per field (BM25 `b`). */
  lengthNormalization: Record<SearchField, number>;
  /** BM25 term-frequency saturation. */
  k1: number;
  /** Weight of a synonym of a query word (0 turns expansion off). */
  synonymWeight: number;
  /** Weight of an index term that a query word is a prefix of (0 turns it off). */
  prefixWeight: number;
  /** Weight of an index term one typo away from an unknown query word (0 turns it off). */
  fuzzyWeight: number;
  /** Whether non-English action words are translated. */
  translate: boolean;
  /** Whether non-English tool texts also get the English words of their common terms. */
  translateDocuments: boolean;
  /**
   * Weight of the server's own relevance (BM25 over all its tools' texts together) added to
   * each of its tools: a request about a domain lifts the server that covers it.
   */
  serverContextWeight: number;
  /** Weight of each clause of a multi-step request ranked on its own (0 turns it off). */
  clauseWeight: number;
  /** Factor applied to a tool's score for each better-ranked tool of the same server (1 turns it off). */
  serverDiversity: number;
  /** Weight of quoted text, file names, paths, URLs and code in a query. */
  literalWeight: number;
  /** Bonus factor for the share of distinct query words a tool matches. */
  coverageBoost: number;
}

/** Defaults tuned on `queries-dev.jsonl` and the LiveMCPBench step queries. */
export const DEFAULT_SEARCH_TUNING: SearchTuning = {
  fieldWeights: { name: 3, server: 1, description: 1, parameters: 0.4 },
  lengthNormalization: { name: 0.5, server: 0.3, description: 0.75, parameters: 0.75 },
  k1: 1.2,
  synonymWeight: 0.4,
  prefixWeight: 0.3,
  fuzzyWeight: 0.5,
  translate: true,
  translateDocuments: true,
  serverContextWeight: 0,
  clauseWeight: 0,
  literalWeight: 1,
  serverDiversity: 1,
  coverageBoost: 0,
};
