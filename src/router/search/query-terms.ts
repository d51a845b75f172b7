import { analyzeText, analyzeWithPhrases, synonymsOf, translateQuery } from './analyze-text.js';
import { splitArgumentValues } from './argument-values.js';
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
 * does not hold, the terms one typo away. Adjacent words also form phrase terms, and
 * non-English words add their English.
 */
export function queryTermGroups(
  query: string,
  known: (term: string) => boolean,
  vocabulary: Vocabulary,
  tuning: SearchTuning,
  namesServer: (term: string) => boolean = () => false,
): WeightedTerm[][] {
  const parts =
    tuning.argumentValueWeight < 1
      ? splitArgumentValues(query, (word) => analyzeText(word).some(namesServer))
      : { intent: query, values: [], implied: [] };
  const { terms, phrases } = analyzeWithPhrases(parts.intent);
  const words = new Set(terms);
  for (const word of parts.implied) words.add(word);
  // Adjacent query words also match as a phrase (`merge request`, `web search`).
  if (tuning.fieldWeights.phrases > 0) for (const phrase of phrases) words.add(phrase);
  if (tuning.translate)
    for (const word of translateQuery(query)) for (const term of analyzeText(word)) words.add(term);
  const distinct = [...words];
  const best = new Map<string, { weight: number; group: number }>();
  const add = (term: string, weight: number, group: number) => {
    const existing = best.get(term);
    if (!existing || existing.weight < weight) best.set(term, { weight, group });
  };
  distinct.forEach((term, group) => {
    add(term, 1, group);
  });
  // Argument values count, but little: a group of their own at a low weight, no expansion.
  const valueTerms = new Set(parts.values.flatMap((value) => analyzeText(value)));
  for (const term of valueTerms) {
    if (best.has(term)) continue;
    const group = distinct.length;
    distinct.push(term);
    best.set(term, { weight: tuning.argumentValueWeight, group });
  }
  distinct.forEach((term, group) => {
    if (term.includes(' ') || best.get(term)!.weight < 1) return;
    if (tuning.synonymWeight > 0) {
      for (const synonym of synonymsOf(term) ?? []) add(synonym, tuning.synonymWeight, group);
    }
    if (tuning.prefixWeight > 0 && term.length >= 3) {
      for (const longer of vocabulary.withPrefix(term, 12)) add(longer, tuning.prefixWeight, group);
    }
    if (tuning.fuzzyWeight > 0 && term.length >= 5 && !known(term)) {
      for (const near of vocabulary.near(term, 4)) add(near, tuning.fuzzyWeight, group);
    }
  });
  const groups: WeightedTerm[][] = distinct.map(() => []);
  for (const [term, { weight, group }] of best) groups[group]!.push({ term, weight });
  return groups;
}
