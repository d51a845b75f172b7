import type { Finding } from './finding.js';

/**
 * ANSI and terminal escape sequences: CSI (`ESC [` or the 8-bit `\x9b`, colours, cursor moves
 * that overwrite what a terminal shows), OSC (`ESC ]`, titles and hyperlinks) and any other ESC.
 */
const ESCAPES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it looks for
  /(?:\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_])/g;

/** Every terminal escape sequence in `text`, as findings at `location`. */
export function findTerminalEscapes(text: string, location: string): Finding[] {
  const findings: Finding[] = [];
  for (const match of text.matchAll(ESCAPES))
    findings.push({
      detector: 'terminal-escapes',
      location,
      severity: 'high',
      range: [match.index, match.index + match[0].length],
    });
  return findings;
}
