import type { SearchableTool } from '../../src/router/search/searchable-tool.js';
import type { ToolSearchIndex } from '../../src/router/search/tool-search-index.js';

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The baseline: one field (name + description), lowercase word tokens, no identifier
 * splitting, stemming, stop words or expansion; k1 = 1.2, b = 0.75.
 */
export function createPlainBm25Index(entries: readonly SearchableTool[]): ToolSearchIndex {
  const docs = entries.map((entry) => words(`${entry.originalName ?? entry.name} ${entry.description}`));
  const average = docs.reduce((sum, doc) => sum + doc.length, 0) / Math.max(1, docs.length);
  const frequencies = docs.map((doc) => {
    const counts = new Map<string, number>();
    for (const word of doc) counts.set(word, (counts.get(word) ?? 0) + 1);
    return counts;
  });
  const documentFrequency = new Map<string, number>();
  for (const counts of frequencies) {
    for (const word of counts.keys()) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  }
  const idf = (term: string) => {
    const df = documentFrequency.get(term) ?? 0;
    return df === 0 ? 0 : Math.log(1 + (entries.length - df + 0.5) / (df + 0.5));
  };
  return {
    size: entries.length,
    scoreBound: (query) => [...new Set(words(query))].reduce((sum, term) => sum + idf(term) * 2.2, 0),
    search(query, options = {}) {
      const terms = new Set(words(query));
      const hits = entries.map((entry, index) => {
        let score = 0;
        for (const term of terms) {
          const tf = frequencies[index]!.get(term) ?? 0;
          if (tf === 0) continue;
          score += (idf(term) * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * docs[index]!.length) / average));
        }
        return { name: entry.name, score };
      });
      return hits
        .filter((hit) => hit.score > 0)
        .sort((left, right) => right.score - left.score)
        .slice(0, options.limit ?? 10);
    },
  };
}
