import { analyzeText, analyzeWithPhrases, translateQuery } from './analyze-text.js';
import { splitQuotedText } from './argument-values.js';
import type { SearchField, SearchTuning } from './search-tuning.js';
import { parameterText, type SearchableTool } from './searchable-tool.js';
import { thesaurusExpansion } from './thesaurus.js';

type TextField = Exclude<SearchField, 'phrases' | 'thesaurus'>;

const FIELDS: readonly SearchField[] = [
  'name',
  'server',
  'description',
  'quoted',
  'parameters',
  'phrases',
  'thesaurus',
];
const TEXT_FIELDS: readonly TextField[] = ['name', 'server', 'description', 'quoted', 'parameters'];

/** The documents holding one term. */
export interface Posting {
  docs: Int32Array;
  /** BM25F pseudo term frequency of the term in each doc, fields already weighted and normalized. */
  weights: Float64Array;
  idf: number;
}

function fieldTexts(tool: SearchableTool): Record<TextField, string> {
  const { rest, quoted } = splitQuotedText(tool.description);
  return {
    name: tool.originalName ?? tool.name,
    server: tool.server ?? '',
    description: rest,
    quoted: quoted.join(' '),
    parameters: parameterText(tool.parameters),
  };
}

/** Analyzed terms of one document, per field. */
export type FieldTerms = Partial<Record<SearchField, string[]>>;

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Index terms of each field of `tool`. With `translateDocuments`, a non-English text also
 * gets the English words of its common terms, so an English request finds a tool that is
 * described only in Chinese; the `thesaurus` field gets the WordNet synonyms of the name and
 * description words.
 */
export function analyzeTool(tool: SearchableTool, tuning: SearchTuning): Record<SearchField, string[]> {
  const texts = fieldTexts(tool);
  const terms = {} as Record<SearchField, string[]>;
  const phrases: string[] = [];
  for (const field of TEXT_FIELDS) {
    const { terms: analyzed, phrases: fieldPhrases } = analyzeWithPhrases(texts[field]);
    if (field === 'name' || field === 'description') phrases.push(...fieldPhrases);
    if (tuning.translateDocuments && field !== 'server' && NON_ASCII.test(texts[field])) {
      for (const word of translateQuery(texts[field])) analyzed.push(...analyzeText(word));
    }
    terms[field] = analyzed;
  }
  terms.phrases = tuning.fieldWeights.phrases > 0 ? phrases : [];
  // Expanding the document, not the query: a tool's words are few and on topic, while a long
  // request's words would drag in synonyms of every side remark. Words of the server name are
  // product names (`Brave`, `Slack`), not English, so they get no synonyms.
  terms.thesaurus =
    tuning.fieldWeights.thesaurus > 0
      ? thesaurusExpansion([...terms.name, ...terms.description], terms.server)
      : [];
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
    for (const field of FIELDS) {
      const terms = doc[field];
      const fieldWeight = fieldWeights[field] ?? 0;
      if (!terms || terms.length === 0 || fieldWeight === 0) continue;
      const b = lengthNormalization[field] ?? 0.75;
      const weight = fieldWeight / (1 - b + (b * terms.length) / averages[field]);
      for (const term of terms) {
        let list = pseudo.get(term);
        if (!list) {
          list = { docs: [], weights: [] };
          pseudo.set(term, list);
        }
        // Documents arrive in order, so a term seen again in this document is the last entry.
        const last = list.docs.length - 1;
        if (last >= 0 && list.docs[last] === docIndex) list.weights[last]! += weight;
        else {
          list.docs.push(docIndex);
          list.weights.push(weight);
        }
      }
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
