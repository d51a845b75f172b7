import { analyzeText, translateQuery } from './analyze-text.js';
import type { SearchField, SearchTuning } from './search-tuning.js';
import { parameterText, type SearchableTool } from './searchable-tool.js';

const FIELDS: readonly SearchField[] = ['name', 'server', 'description', 'parameters'];

/** The documents holding one term. */
export interface Posting {
  docs: Int32Array;
  /** BM25F pseudo term frequency of the term in each doc, fields already weighted and normalized. */
  weights: Float64Array;
  idf: number;
}

function fieldTexts(tool: SearchableTool): Record<SearchField, string> {
  return {
    name: tool.originalName ?? tool.name,
    server: tool.server ?? '',
    description: tool.description,
    parameters: parameterText(tool.parameters),
  };
}

/** Analyzed terms of one document, per field. */
export type FieldTerms = Partial<Record<SearchField, string[]>>;

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Index terms of each field of `tool`. With `translateDocuments`, a non-English text also
 * gets the English words of its common terms, so an English request finds a tool that is
 * described only in Chinese.
 */
export function analyzeTool(tool: SearchableTool, tuning: SearchTuning): Record<SearchField, string[]> {
  const texts = fieldTexts(tool);
  const terms = {} as Record<SearchField, string[]>;
  for (const field of FIELDS) {
    const analyzed = analyzeText(texts[field]);
    if (tuning.translateDocuments && field !== 'server' && NON_ASCII.test(texts[field])) {
      for (const word of translateQuery(texts[field])) analyzed.push(...analyzeText(word));
    }
    terms[field] = analyzed;
  }
  return terms;
}

/**
 * BM25F postings: for each term, the documents holding it with their pseudo term frequency
 * (field weights and per-field length normalization applied) and the term's idf.
 */
export function buildPostings(
  docs: readonly FieldTerms[],
  fieldWeights: Partial<Record<SearchField, number>>,
  lengthNormalization: Partial<Record<SearchField, number>>,
): Map<string, Posting> {
  const averages = {} as Record<SearchField, number>;
  for (const field of FIELDS) {
    const total = docs.reduce((sum, doc) => sum + (doc[field]?.length ?? 0), 0);
    averages[field] = Math.max(1, total / Math.max(1, docs.length));
  }
  const pseudo = new Map<string, { docs: number[]; weights: number[] }>();
  docs.forEach((doc, docIndex) => {
    const local = new Map<string, number>();
    for (const field of FIELDS) {
      const terms = doc[field];
      const fieldWeight = fieldWeights[field] ?? 0;
      if (!terms || terms.length === 0 || fieldWeight === 0) continue;
      const b = lengthNormalization[field] ?? 0.75;
      const weight = fieldWeight / (1 - b + (b * terms.length) / averages[field]);
      for (const term of terms) local.set(term, (local.get(term) ?? 0) + weight);
    }
    for (const [term, weight] of local) {
      const list = pseudo.get(term) ?? { docs: [], weights: [] };
      list.docs.push(docIndex);
      list.weights.push(weight);
      pseudo.set(term, list);
    }
  });
  const postings = new Map<string, Posting>();
  for (const [term, list] of pseudo) {
    const df = list.docs.length;
    postings.set(term, {
      docs: Int32Array.from(list.docs),
      weights: Float64Array.from(list.weights),
      idf: Math.log(1 + (docs.length - df + 0.5) / (df + 0.5)),
    });
  }
  return postings;
}
