import { stemmer } from 'stemmer';
import { STOP_WORDS } from './stop-words.js';
import { SYNONYM_GROUPS } from './synonyms.js';
import { forEachToken, tokenize } from './tokenize.js';
import { TRANSLATIONS } from './translations.js';

const stemCache = new Map<string, string>();

// Porter conflates these with unrelated words (`news` → `new`, `general` → `gener` as in `generate`).
const UNSTEMMED = new Set(['news', 'general', 'generic', 'experience', 'universe', 'university']);

/** Porter stem of a lowercase Latin word; numbers, short words and CJK tokens pass through. */
export function stemWord(word: string): string {
  if (word.length <= 2 || UNSTEMMED.has(word) || !/^[a-z]+$/.test(word)) return word;
  let stem = stemCache.get(word);
  if (stem === undefined) {
    stem = stemmer(word);
    if (stemCache.size < 50_000) stemCache.set(word, stem);
  }
  return stem;
}

/** Index terms of `text`: tokenized, stop words dropped, stemmed. Used for documents and queries alike. */
export function analyzeText(text: string): string[] {
  const terms: string[] = [];
  forEachToken(text, (token, cjk) => {
    if (cjk) terms.push(token);
    else if (!STOP_WORDS.has(token)) terms.push(stemWord(token));
  });
  return terms;
}

/**
 * Index terms of `text` plus its phrases: each pair of adjacent words with no stop word
 * between them (`merge request` in "open merge requests", not `entities knowledge` in
 * "entities in the knowledge graph").
 */
export function analyzeWithPhrases(text: string): { terms: string[]; phrases: string[] } {
  const terms: string[] = [];
  const phrases: string[] = [];
  let previous: string | undefined;
  forEachToken(text, (token, cjk) => {
    if (cjk || STOP_WORDS.has(token)) {
      previous = undefined;
      if (cjk) terms.push(token);
      return;
    }
    const term = stemWord(token);
    terms.push(term);
    if (previous !== undefined) phrases.push(`${previous} ${term}`);
    previous = term;
  });
  return { terms, phrases };
}

const synonymsByStem: Map<string, Set<string>> = (() => {
  const map = new Map<string, Set<string>>();
  for (const group of SYNONYM_GROUPS) {
    const stems = group.map((word) => stemWord(word));
    for (const stem of stems) {
      const set = map.get(stem) ?? new Set<string>();
      for (const other of stems) if (other !== stem) set.add(other);
      map.set(stem, set);
    }
  }
  return map;
})();

const NON_LATIN_KEYED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Cyrillic}]/u;

const substringKeys = Object.keys(TRANSLATIONS)
  .filter((key) => !/^[a-z]+$/.test(key))
  .sort((left, right) => right.length - left.length);

/** The other stems of the synonym groups `stem` belongs to. */
export function synonymsOf(stem: string): ReadonlySet<string> | undefined {
  return synonymsByStem.get(stem);
}

/**
 * English words for the non-English action words in `query`: Chinese, Japanese, Korean and
 * Russian keys are found anywhere (longest first, so `文件夹` wins over `文件`), Latin keys
 * match whole folded tokens.
 */
export function translateQuery(query: string): string[] {
  const words: string[] = [];
  if (NON_LATIN_KEYED.test(query)) {
    let rest = query.toLowerCase();
    for (const key of substringKeys) {
      if (rest.includes(key)) {
        words.push(TRANSLATIONS[key]!);
        rest = rest.split(key).join(' ');
      }
    }
  }
  for (const token of tokenize(query)) {
    if (token.cjk) continue;
    const english = TRANSLATIONS[token.text];
    if (english !== undefined && !STOP_WORDS.has(token.text)) words.push(english);
  }
  return words;
}
