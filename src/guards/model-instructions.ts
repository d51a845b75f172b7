import type { Anchor, AnchorHits } from './anchor-scan.js';
import type { Finding } from './finding.js';

/** Every combination of a word of `firsts` and one of `thens` (the anchors of an alternation). */
const each = (firsts: readonly string[], thens: readonly string[]) =>
  firsts.flatMap((first) => thens.map((then) => `${first}${then}`));

/**
 * Phrases that address the model rather than describe a tool or carry data: overriding its
 * instructions, hiding things from the user, reaching for credentials, and the tags poisoned
 * descriptions use to look authoritative. Each rule is a name, a case-insensitive pattern and
 * the anchors every match of it starts with (a space in an anchor: the pattern's `\s+`); the
 * pattern is tried only where one of them starts. The list is short on purpose (each phrase
 * was seen in published poisoning examples) so that ordinary documentation does not trip it.
 */
export const INSTRUCTION_RULES: ReadonlyArray<[string, RegExp, readonly string[]]> = [
  [
    'override',
    /\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier|preceding|other)\s+(?:instructions|prompts?|rules|directions)/gi,
    ['ignore ', 'disregard ', 'forget '],
  ],
  ['override', /\bnew\s+instructions\s*:/gi, ['new instructions']],
  [
    'conceal',
    /\b(?:do\s+not|don['’]t|never)\s+(?:tell|inform|notify|mention\s+(?:this\s+)?to|reveal\s+(?:this\s+)?to|show)\s+(?:it\s+to\s+)?the\s+user/gi,
    each(
      ['do not ', "don't ", 'don’t ', 'never '],
      ['tell ', 'inform ', 'notify ', 'mention ', 'reveal ', 'show '],
    ),
  ],
  [
    'conceal',
    /\bwithout\s+(?:telling|informing|notifying)\s+the\s+user/gi,
    each(['without '], ['telling ', 'informing ', 'notifying ']),
  ],
  [
    'conceal',
    /\b(?:the\s+user|they)\s+(?:must|should)\s+not\s+(?:know|see|be\s+told)/gi,
    each(['the user ', 'they '], ['must not ', 'should not ']),
  ],
  [
    'authority',
    /<\s*(?:important|system|instructions?)\s*>/gi,
    each(['<', '< '], ['important', 'system', 'instruction']),
  ],
  ['authority', /\byou\s+are\s+now\s+(?:in\s+)?(?:developer|admin|god|dan)\b/gi, ['you are now ']],
  [
    'credentials',
    /(?:~\/\.ssh|id_rsa|id_ed25519|\.aws\/credentials|\.netrc|\/etc\/shadow)\b/gi,
    ['~/.ssh', 'id_rsa', 'id_ed25519', '.aws/credentials', '.netrc', '/etc/shadow'],
  ],
  [
    'exfiltrate',
    /\b(?:send|post|upload|forward|pass)\s+(?:it|them|this|the\s+(?:contents?|file|key|token|secrets?))\s+(?:to|as)\s+(?:https?:\/\/|the\s+["'`]?\w+["'`]?\s+(?:parameter|argument))/gi,
    each(
      ['send ', 'post ', 'upload ', 'forward ', 'pass '],
      ['it ', 'them ', 'this ', 'the content', 'the file ', 'the key ', 'the token ', 'the secret'],
    ),
  ],
  [
    'before-using',
    /\bbefore\s+(?:using|calling)\s+(?:this|any)\s+tool,?\s+(?:you\s+must\s+|first\s+)?(?:read|call|send|fetch|run)/gi,
    each(['before using ', 'before calling '], ['this tool', 'any tool']),
  ],
];

/** The anchors of each rule of {@link INSTRUCTION_RULES}, under the key `instructions:<index>`. */
export const INSTRUCTION_ANCHORS: readonly Anchor[] = INSTRUCTION_RULES.flatMap(([, , anchors], index) =>
  anchors.map((text) => ({ key: `instructions:${index}`, text })),
);

/** The same patterns, tried at one position (where an anchor starts). */
const STICKY = INSTRUCTION_RULES.map(([, pattern]) => new RegExp(pattern.source, 'iy'));

/**
 * Every phrase of {@link INSTRUCTION_RULES} in `text` (its `hits` by {@link INSTRUCTION_ANCHORS}),
 * as findings at `location`: the matches a global search would find, in the same order, each
 * pattern tried only where an anchor of its rule starts and past the previous match.
 */
export function findModelInstructions(text: string, location: string, hits: AnchorHits): Finding[] {
  const findings: Finding[] = [];
  for (const [index, [rule]] of INSTRUCTION_RULES.entries()) {
    const starts = hits.starts.get(`instructions:${index}`);
    if (starts === undefined) continue;
    const pattern = STICKY[index]!;
    let after = 0;
    for (const start of starts) {
      if (start < after) continue;
      pattern.lastIndex = start;
      const match = pattern.exec(text);
      if (match === null) continue;
      const end = start + match[0].length;
      after = Math.max(end, start + 1);
      findings.push({
        detector: `instructions:${rule}`,
        location,
        severity: rule === 'credentials' || rule === 'exfiltrate' || rule === 'conceal' ? 'high' : 'medium',
        range: [start, end],
      });
    }
  }
  return findings;
}
