import type { PinnedKind } from '../config/pins-config.js';
import { anchorsIn } from './detector-anchors.js';
import type { Finding } from './finding.js';
import { findHiddenCharacters } from './hidden-characters.js';
import { findModelInstructions } from './model-instructions.js';
import { findTerminalEscapes } from './terminal-escapes.js';

/** A run of base64 or hex long enough to hide a payload in a description. */
const ENCODED_BLOB = /[A-Za-z0-9+/=_-]{200,}/g;
const URL_PATTERN = /\bhttps?:\/\/[^\s)"'<>]+/gi;

/**
 * The poisoning findings of one definition as a server sent it: hidden characters and terminal
 * escapes in any string, instructions aimed at the model, URLs and long encoded blobs in its
 * descriptions, and (with `otherTools`, the tool names of the other servers) references to
 * another server's tools, the way a definition steers the model away from them ("shadowing").
 */
export function scanDefinition(
  kind: PinnedKind,
  definition: object,
  otherTools: ReadonlySet<string> = new Set(),
): Finding[] {
  const findings: Finding[] = [];
  walkStrings(definition, '', (text, location) => {
    const hits = anchorsIn(text);
    findings.push(
      ...findHiddenCharacters(text, location, hits),
      ...findTerminalEscapes(text, location, hits),
    );
    if (!isProse(location)) return;
    findings.push(...findModelInstructions(text, location, hits));
    for (const match of text.matchAll(URL_PATTERN))
      findings.push({
        detector: 'url',
        location,
        severity: 'low',
        range: [match.index, match.index + match[0].length],
      });
    for (const match of text.matchAll(ENCODED_BLOB))
      findings.push({
        detector: 'encoded-blob',
        location,
        severity: 'medium',
        range: [match.index, match.index + match[0].length],
      });
    for (const name of otherTools) {
      // Only names specific enough to be meant (read_file, createIssue), not words (search).
      if (!/[_.-]|[a-z][A-Z]/.test(name)) continue;
      const at = wordIndex(text, name);
      if (at >= 0)
        findings.push({ detector: 'shadowing', location, severity: 'medium', range: [at, at + name.length] });
    }
  });
  if (kind === 'tool') {
    const name = (definition as { name?: unknown }).name;
    if (typeof name === 'string' && otherTools.has(name))
      // Two servers with a "navigate" is common; the model may still call the wrong one.
      findings.push({ detector: 'name-collision', location: 'name', severity: 'low' });
  }
  return findings;
}

/** Fields a model reads as prose (descriptions, titles), where phrases and URLs matter. */
function isProse(location: string): boolean {
  return /(?:^|\.)(?:description|title)$/.test(location) || location.startsWith('_meta');
}

/** Where `name` occurs in `text` as a whole word (names of fewer than 4 characters never match). */
function wordIndex(text: string, name: string): number {
  if (name.length < 4) return -1;
  let from = 0;
  for (;;) {
    const at = text.indexOf(name, from);
    if (at < 0) return -1;
    const before = text[at - 1];
    const after = text[at + name.length];
    if ((before === undefined || !/\w/.test(before)) && (after === undefined || !/\w/.test(after))) return at;
    from = at + 1;
  }
}

/** Calls `visit` with every string in `value` (property names included) and its path. */
function walkStrings(
  value: unknown,
  path: string,
  visit: (text: string, location: string) => void,
  depth = 0,
): void {
  if (depth > 64) return;
  if (typeof value === 'string') {
    visit(value, path || '(value)');
    return;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) walkStrings(item, `${path}[${index}]`, visit, depth + 1);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, inner] of Object.entries(value)) {
    const location = path === '' ? key : `${path}.${key}`;
    visit(key, `${location}(key)`);
    walkStrings(inner, location, visit, depth + 1);
  }
}
