/**
 * The fields of a tool that BM25F scores; `quoted` holds the quoted text of the description
 * (examples and values, kept out of `description`), `phrases` adjacent word pairs of the name
 * and description, `thesaurus` the WordNet synonyms of their words.
 */
export type SearchField =
  | 'name'
  | 'server'
  | 'description'
  | 'quoted'
  | 'parameters'
  | 'phrases'
  | 'thesaurus';

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
  /** Score bonus (as a fraction) for the tools of a server the request names (`in Slack`). */
  serverMentionBoost: number;
  /** Weight of the words of argument values (`config.json`, 'Sprint 4', Project Falcon); 1 treats them as intent. */
  argumentValueWeight: number;
  /** Score factor for tools deprecated in favour of another (`DEPRECATED: Use x instead`). */
  deprecatedFactor: number;
}

/** Defaults tuned on `queries-dev.jsonl` and the LiveMCPBench step queries. */
export const DEFAULT_SEARCH_TUNING: SearchTuning = {
  fieldWeights: {
    name: 3,
    server: 1,
    description: 1,
    quoted: 0.4,
    parameters: 0.4,
    phrases: 1,
    thesaurus: 0.45,
  },
  lengthNormalization: {
    name: 0.5,
    server: 0.3,
    description: 0.75,
    quoted: 0.5,
    parameters: 0.75,
    phrases: 0.75,
    thesaurus: 0.5,
  },
  k1: 1.2,
  synonymWeight: 0.6,
  prefixWeight: 0.3,
  fuzzyWeight: 0.5,
  translate: true,
  translateDocuments: true,
  serverMentionBoost: 0.5,
  deprecatedFactor: 0.6,
  argumentValueWeight: 0.5,
};
