import type { Finding } from './finding.js';

/**
 * Literal strings at least one of which a rule below needs (the literal part of its patterns).
 * They are looked for in one pass over the text ({@link needlesIn}): on a large result a pass
 * per rule, or a substring search per needle, costs more than the rules' patterns save.
 */
const NEEDLES = [
  'npm_',
  '_authToken=',
  ':x-oauth-basic@',
  'xox',
  'xapp-',
  'T3BlbkFJ',
  'lin_api_',
  'PRIVATE KEY',
  'SG.',
  'shppa_',
  'shpca_',
  'shpat_',
  'shpss_',
  'ghp_',
  'gho_',
  'ghu_',
  'ghs_',
  'ghr_',
  'github_pat_',
  'ops_ey',
  'secretlint-',
  'glpat-',
  'sk-ant-',
  '_live_',
  'AccountKey=',
] as const;
type Needle = (typeof NEEDLES)[number];

const NEEDLE_PATTERN = new RegExp(
  NEEDLES.map((needle) => needle.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'),
  'g',
);

/**
 * The {@link NEEDLES} in `text`. After each match the search goes on from the next character,
 * not past the match, so a needle that overlaps another one's occurrence is found too (no needle
 * is a prefix of another, so the alternation's order hides none).
 */
function needlesIn(text: string): Set<Needle> {
  const found = new Set<Needle>();
  const pattern = new RegExp(NEEDLE_PATTERN);
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    found.add(match[0] as Needle);
    if (found.size === NEEDLES.length) break;
    pattern.lastIndex = match.index + 1;
  }
  return found;
}

/**
 * What the text must contain for each rule of the recommended set to find anything: the literal
 * part of every pattern the rule runs on a text file (its options left at their defaults). A
 * rule whose needles are all absent is not run, which saves a pass of its patterns over a large
 * result (and the linter's own pass when no rule is left); a rule not listed here (one a later
 * release adds) always runs.
 */
const RULE_NEEDLES: Readonly<Record<string, (text: string, found: ReadonlySet<Needle>) => boolean>> = {
  // Only the secret access key is scanned by default (the key ID and account ID scans are off),
  // named `SECRET_ACCESS_KEY` in one of three cases, `_` optional.
  '@secretlint/secretlint-rule-aws': (text) =>
    /(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)/.test(text),
  // Reads private keys from `.json` and `.p12` files only; a result is scanned as `.txt`.
  '@secretlint/secretlint-rule-gcp': () => false,
  '@secretlint/secretlint-rule-npm': (_, found) =>
    found.has('npm_') || found.has('_authToken=') || found.has(':x-oauth-basic@'),
  '@secretlint/secretlint-rule-slack': (text, found) =>
    found.has('xox') || found.has('xapp-') || /hooks\.slack\.com/i.test(text),
  // `scheme://user:password@host`, the user and password of `[-a-zA-Z0-9_]` only.
  '@secretlint/secretlint-rule-basicauth': (text) =>
    /:\/\/[-a-zA-Z0-9_]{1,256}:[-a-zA-Z0-9_]{1,256}@/.test(text),
  '@secretlint/secretlint-rule-openai': (_, found) => found.has('T3BlbkFJ'),
  '@secretlint/secretlint-rule-linear': (_, found) => found.has('lin_api_'),
  '@secretlint/secretlint-rule-privatekey': (_, found) => found.has('PRIVATE KEY'),
  '@secretlint/secretlint-rule-sendgrid': (_, found) => found.has('SG.'),
  '@secretlint/secretlint-rule-shopify': (_, found) =>
    found.has('shppa_') || found.has('shpca_') || found.has('shpat_') || found.has('shpss_'),
  '@secretlint/secretlint-rule-github': (_, found) =>
    found.has('ghp_') ||
    found.has('gho_') ||
    found.has('ghu_') ||
    found.has('ghs_') ||
    found.has('ghr_') ||
    found.has('github_pat_'),
  '@secretlint/secretlint-rule-1password': (_, found) => found.has('ops_ey'),
  // Acts only on `secretlint-disable` comments.
  '@secretlint/secretlint-rule-filter-comments': (_, found) => found.has('secretlint-'),
};

/** The rules and linter, loaded with the first scan (the package root stays light). */
let linter:
  | Promise<{
      lint: (
        text: string,
        found: ReadonlySet<Needle>,
      ) => Promise<Array<{ ruleId: string; messageId: string; range: readonly [number, number] }>>;
    }>
  | undefined;

function load() {
  linter ??= (async () => {
    const [{ lintSource }, { rules }, { secretLintProfiler }] = await Promise.all([
      import('@secretlint/core'),
      import('@secretlint/secretlint-rule-preset-recommend'),
      import('@secretlint/profiler'),
    ]);
    // The linter marks the performance timeline for every rule of every lint, and its profiler
    // keeps each mark and scans all of them at the next (fixed upstream only in releases that
    // need Node 22): screening every result, a gateway would slow down with each one and keep
    // every mark. Its measures are never read here, so its marks are not made.
    secretLintProfiler.mark = () => undefined;
    // The preset's rules one by one (what the preset registers), so that each runs only on a
    // text that holds its needles.
    const entries = rules.map((rule) => ({
      descriptor: { id: rule.meta.id, rule, options: {} },
      needed: RULE_NEEDLES[rule.meta.id] ?? (() => true),
    }));
    return {
      lint: async (text: string, found: ReadonlySet<Needle>) => {
        const wanted = entries.filter((entry) => entry.needed(text, found)).map((entry) => entry.descriptor);
        if (wanted.length === 0) return [];
        return (
          await lintSource({
            source: { content: text, filePath: '/mcptools-scan.txt', ext: '.txt', contentType: 'text' },
            options: { config: { rules: wanted }, maskSecrets: true },
          })
        ).messages.map((message) => ({
          ruleId: message.ruleId,
          messageId: message.messageId,
          range: message.range,
        }));
      },
    };
  })();
  return linter;
}

/**
 * Well-known formats the recommended rule set lacks, each one documented by its issuer and
 * anchored on its fixed prefix (no entropy guesses): GitLab personal tokens, Anthropic API keys,
 * Stripe live keys and Azure storage account keys. Each comes with the needle every match
 * contains: a text without it skips the pattern.
 */
const EXTRA_RULES: ReadonlyArray<[string, Needle, RegExp]> = [
  ['GITLAB_TOKEN', 'glpat-', /\bglpat-[0-9A-Za-z_-]{20,}/g],
  ['ANTHROPIC_API_KEY', 'sk-ant-', /\bsk-ant-(?:api|admin)\d{2}-[0-9A-Za-z_-]{80,}/g],
  ['STRIPE_LIVE_KEY', '_live_', /\b(?:sk|rk)_live_[0-9A-Za-z]{20,}/g],
  ['AZURE_STORAGE_KEY', 'AccountKey=', /\bAccountKey=[0-9A-Za-z+/]{80,}={0,2}/g],
];

/**
 * The secrets in `text` by secretlint's recommended rule set (AWS, GCP, Azure, GitHub, GitLab
 * and npm tokens, Slack, SendGrid, Shopify, OpenAI, Anthropic and Linear keys, private keys,
 * credentials in URLs, …), as findings at `location` named after the rule's message id
 * (`secret:GITHUB_TOKEN`), and the {@link EXTRA_RULES}. The value never leaves this function but as a range.
 */
export async function findSecrets(text: string, location: string): Promise<Finding[]> {
  // Every rule needs a run of at least 16 characters without spaces: short texts skip the linter.
  if (text.length < 16) return [];
  const { lint } = await load();
  const found = needlesIn(text);
  const findings: Finding[] = (await lint(text, found)).map(({ messageId, range }) => ({
    detector: `secret:${messageId}`,
    location,
    severity: 'high',
    range: [range[0], range[1]],
  }));
  for (const [rule, literal, pattern] of EXTRA_RULES) {
    if (!found.has(literal)) continue;
    for (const match of text.matchAll(pattern))
      findings.push({
        detector: `secret:${rule}`,
        location,
        severity: 'high',
        range: [match.index, match.index + match[0].length],
      });
  }
  return findings;
}
