import { createRequire } from 'node:module';

// Naming the file in a type is what makes tsc copy it into dist beside this module.
type ThesaurusFile = typeof import('./thesaurus-data.json');

const require = createRequire(import.meta.url);

let table: Record<string, string> | undefined;
const parsed = new Map<string, readonly string[]>();
const NONE: readonly string[] = [];

/** Reads the table synchronously, on first use: 217 KiB that importing the library never pays for. */
function readTable(): Record<string, string> {
  return (require('./thesaurus-data.json') as Pick<ThesaurusFile, 'synonyms'>).synonyms as Record<
    string,
    string
  >;
}

/**
 * WordNet synonyms of `stem` (stems too), from the table `bench/search/build-thesaurus.ts`
 * generated. The table is read on the first call, not at import, so loading the library
 * stays cheap.
 */
export function thesaurusSynonymsOf(stem: string): readonly string[] {
  table ??= readTable();
  let synonyms = parsed.get(stem);
  if (synonyms === undefined) {
    const row = Object.hasOwn(table, stem) ? table[stem] : undefined;
    synonyms = row === undefined ? NONE : row.split(' ');
    parsed.set(stem, synonyms);
  }
  return synonyms;
}

/**
 * The WordNet synonyms of a document's `terms` that the document does not already hold, one
 * entry per link, so a word that several of the terms point at weighs more. Terms in `names`
 * (product names) are not expanded.
 */
export function thesaurusExpansion(terms: readonly string[], names: readonly string[] = []): string[] {
  const own = new Set(terms);
  const added: string[] = [];
  const skip = new Set(names);
  for (const term of own)
    if (!skip.has(term))
      for (const synonym of thesaurusSynonymsOf(term)) if (!own.has(synonym)) added.push(synonym);
  return added;
}
