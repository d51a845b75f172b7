import { analyzeText, synonymsOf, translateQuery } from './analyze-text.js';
import type { SearchTuning } from './search-tuning.js';
import type { Vocabulary } from './vocabulary.js';

/** One weighted index term a query word expands to. */
export interface WeightedTerm {
  term: string;
  weight: number;
}

/**
 * The weighted terms of `query`, grouped by the query word they came from: the word itself
 * (weight 1), its synonyms, the index terms it is a prefix of, and, for a word the index
 * does not hold, the terms one typo away. Non-English action words add their English.
 */
export function queryTermGroups(
  query: string,
  known: (term: string) => boolean,
  vocabulary: Vocabulary,
  tuning: SearchTuning,
): WeightedTerm[][] {
  const { prose, literals } = separateLiterals(query);
  const wordWeights = new Map<string, number>();
  const addWord = (term: string, weight: number) => wordWeights.set(term, Math.max(wordWeights.get(term) ?? 0, weight));
  for (const term of analyzeText(prose)) addWord(term, 1);
  for (const term of analyzeText(literals)) addWord(term, tuning.literalWeight);
  if (tuning.translate) for (const word of translateQuery(query)) for (const term of analyzeText(word)) addWord(term, 1);
  const distinct = [...wordWeights];
  const best = new Map<string, { weight: number; group: number }>();
  const add = (term: string, weight: number, group: number) => {
    const existing = best.get(term);
    if (!existing || existing.weight < weight) best.set(term, { weight, group });
  };
  distinct.forEach(([term, weight], group) => {
    add(term, weight, group);
  });
  distinct.forEach(([term, weight], group) => {
    if (tuning.synonymWeight > 0) {
      for (const synonym of synonymsOf(term) ?? []) add(synonym, weight * tuning.synonymWeight, group);
    }
    if (tuning.prefixWeight > 0 && term.length >= 3) {
      for (const longer of vocabulary.withPrefix(term, 12)) add(longer, weight * tuning.prefixWeight, group);
    }
    if (tuning.fuzzyWeight > 0 && term.length >= 5 && !known(term)) {
      for (const near of vocabulary.near(term, 4)) add(near, weight * tuning.fuzzyWeight, group);
    }
  });
  const groups: WeightedTerm[][] = distinct.map(() => []);
  for (const [term, { weight, group }] of best) groups[group]!.push({ term, weight });
  return groups;
}

/**
 * Splits a request into its prose and its literals: quoted text, file names, paths, URLs
 * and code (`config.yaml`, `acme/api`, `print(sum(range(100)))`). Literals say what to act
 * on, rarely which tool to use, so they weigh less.
 */
export function separateLiterals(query: string): { prose: string; literals: string } {
  const literals: string[] = [];
  const prose = query
    .replace(/(^|\s)["'`“‘]([^"'`”’]{1,200})["'`”’](?=$|[\s.,;:!?])/g, (_match, before: string, inner: string) => {
      literals.push(inner);
      return `${before} `;
    })
    .replace(/\S*[A-Za-z0-9][./\\()[\]{}=#@:][A-Za-z0-9(]\S*/g, (match) => {
      literals.push(match);
      return ' ';
    });
  return { prose, literals: literals.join(' ') };
}

/**
 * The clauses of a multi-step request (`read X, then post Y and open Z`): split at sentence
 * ends, semicolons, commas and the words that chain steps.
 */
export function splitClauses(query: string): string[] {
  return query
    .split(/[.;!?。；！？]\s|[,，、]\s*(?:and\s+|then\s+)*|\s+(?:and then|then|and also|and|after that|afterwards)\s+/i)
    .map((clause) => clause.trim())
    .filter((clause) => analyzeText(clause).length > 0);
}
