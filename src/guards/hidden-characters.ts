import type { AnchorHits, MarkClass } from './anchor-scan.js';
import type { Finding } from './finding.js';

/**
 * Characters that reach the model but not a person's eyes: Unicode tag characters (they spell
 * ASCII text invisibly), zero-width characters and the word joiner, the byte order mark inside
 * text, and bidirectional controls (they reorder what a reviewer reads). Each kind comes with
 * the characters its runs start with (a tag character's first UTF-16 unit): a text with none of
 * them skips its pattern, and one with some is searched from the first.
 */
const HIDDEN: ReadonlyArray<[string, RegExp, RegExp]> = [
  ['tag', /[\u{e0000}-\u{e007f}]+/gu, /\udb40/],
  ['zero-width', /[\u200b-\u200d\u2060\ufeff\u180e]+/gu, /[\u200b-\u200d\u2060\ufeff\u180e]/],
  [
    'bidi',
    /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]+/gu,
    /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/,
  ],
];

/** The characters each kind of hidden run starts with, as {@link AnchorHits.marks} to look for. */
export const HIDDEN_MARKS: readonly MarkClass[] = HIDDEN.map(([kind, , chars]) => ({
  key: `hidden-characters:${kind}`,
  chars,
}));

/** Every run of hidden characters in `text` (its `hits` by {@link HIDDEN_MARKS}), as findings at `location`. */
export function findHiddenCharacters(text: string, location: string, hits: AnchorHits): Finding[] {
  const findings: Finding[] = [];
  for (const [kind, pattern] of HIDDEN) {
    const first = hits.marks.get(`hidden-characters:${kind}`);
    if (first === undefined) continue;
    const from = new RegExp(pattern);
    from.lastIndex = first;
    for (const match of text.matchAll(from))
      findings.push({
        detector: `hidden-characters:${kind}`,
        location,
        severity: kind === 'tag' || match[0].length > 2 ? 'high' : 'medium',
        range: [match.index, match.index + match[0].length],
      });
  }
  return findings;
}
