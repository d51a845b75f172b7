import type { Finding } from './finding.js';

/**
 * Phrases that address the model rather than describe a tool or carry data: overriding its
 * instructions, hiding things from the user, reaching for credentials, and the tags poisoned
 * descriptions use to look authoritative. Each rule is a name and a case-insensitive pattern;
 * the list is short on purpose (each phrase was seen in published poisoning examples) so that
 * ordinary documentation does not trip it.
 */
const RULES: ReadonlyArray<[string, RegExp]> = [
  [
    'override',
    /\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier|preceding|other)\s+(?:instructions|prompts?|rules|directions)/gi,
  ],
  ['override', /\bnew\s+instructions\s*:/gi],
  [
    'conceal',
    /\b(?:do\s+not|don['’]t|never)\s+(?:tell|inform|notify|mention\s+(?:this\s+)?to|reveal\s+(?:this\s+)?to|show)\s+(?:it\s+to\s+)?the\s+user/gi,
  ],
  ['conceal', /\bwithout\s+(?:telling|informing|notifying)\s+the\s+user/gi],
  ['conceal', /\b(?:the\s+user|they)\s+(?:must|should)\s+not\s+(?:know|see|be\s+told)/gi],
  ['authority', /<\s*(?:important|system|instructions?)\s*>/gi],
  ['authority', /\byou\s+are\s+now\s+(?:in\s+)?(?:developer|admin|god|dan)\b/gi],
  ['credentials', /(?:~\/\.ssh|id_rsa|id_ed25519|\.aws\/credentials|\.netrc|\/etc\/shadow)\b/gi],
  [
    'exfiltrate',
    /\b(?:send|post|upload|forward|pass)\s+(?:it|them|this|the\s+(?:contents?|file|key|token|secrets?))\s+(?:to|as)\s+(?:https?:\/\/|the\s+["'`]?\w+["'`]?\s+(?:parameter|argument))/gi,
  ],
  [
    'before-using',
    /\bbefore\s+(?:using|calling)\s+(?:this|any)\s+tool,?\s+(?:you\s+must\s+|first\s+)?(?:read|call|send|fetch|run)/gi,
  ],
];

/** Every phrase of {@link RULES} in `text`, as findings at `location`. */
export function findModelInstructions(text: string, location: string): Finding[] {
  const findings: Finding[] = [];
  for (const [rule, pattern] of RULES) {
    for (const match of text.matchAll(pattern))
      findings.push({
        detector: `instructions:${rule}`,
        location,
        severity: rule === 'credentials' || rule === 'exfiltrate' || rule === 'conceal' ? 'high' : 'medium',
        range: [match.index, match.index + match[0].length],
      });
  }
  return findings;
}
