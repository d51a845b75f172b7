import type { Finding } from './finding.js';

/**
 * Characters that reach the model but not a person's eyes: Unicode tag characters (they spell
 * ASCII text invisibly), zero-width characters and the word joiner, the byte order mark inside
 * text, and bidirectional controls (they reorder what a reviewer reads).
 */
const HIDDEN: ReadonlyArray<[string, RegExp]> = [
  ['tag', /[\u{e0000}-\u{e007f}]+/gu],
  ['zero-width', /[\u200b-\u200d\u2060\ufeff\u180e]+/gu],
  ['bidi', /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]+/gu],
];

/** Every run of hidden characters in `text`, as findings at `location`. */
export function findHiddenCharacters(text: string, location: string): Finding[] {
  const findings: Finding[] = [];
  for (const [kind, pattern] of HIDDEN) {
    for (const match of text.matchAll(pattern))
      findings.push({
        detector: `hidden-characters:${kind}`,
        location,
        severity: kind === 'tag' || match[0].length > 2 ? 'high' : 'medium',
        range: [match.index, match.index + match[0].length],
      });
  }
  return findings;
}
