import type { AnchorHits, MarkClass } from './anchor-scan.js';
import type { Finding } from './finding.js';

/**
 * ANSI and terminal escape sequences: CSI (`ESC [` or the 8-bit `\x9b`, colours, cursor moves
 * that overwrite what a terminal shows), OSC (`ESC ]`, titles and hyperlinks) and any other ESC.
 */
const ESCAPES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it looks for
  /(?:\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_])/g;

/** The characters every escape sequence starts with, as an {@link AnchorHits.marks} class to look for. */
export const ESCAPE_MARKS: readonly MarkClass[] = [
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it looks for
  { key: 'terminal-escapes', chars: /[\u001b\u009b]/ },
];

/** Every terminal escape sequence in `text` (its `hits` by {@link ESCAPE_MARKS}), as findings at `location`. */
export function findTerminalEscapes(text: string, location: string, hits: AnchorHits): Finding[] {
  const findings: Finding[] = [];
  const first = hits.marks.get('terminal-escapes');
  if (first === undefined) return findings;
  const from = new RegExp(ESCAPES);
  from.lastIndex = first;
  for (const match of text.matchAll(from))
    findings.push({
      detector: 'terminal-escapes',
      location,
      severity: 'high',
      range: [match.index, match.index + match[0].length],
    });
  return findings;
}
