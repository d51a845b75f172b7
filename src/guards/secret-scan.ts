import type { Anchor, AnchorHits } from './anchor-scan.js';
import type { Finding } from './finding.js';

/**
 * Literal strings at least one of which a rule below needs (the literal part of its patterns).
 * They are found with the other detectors' anchors in one pass over the text
 * ({@link SECRET_ANCHORS}): on a large result a pass per rule, or a substring search per needle,
 * costs more than the rules' patterns save.
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

/**
 * What three rules' patterns start with (their other literals are not fixed), each with the
 * pattern the rule needs somewhere in the text, tried where the anchor starts: the secret
 * access key of AWS (`SECRET_ACCESS_KEY` in one of three cases, `_` optional), a Slack webhook,
 * credentials in a URL (`scheme://user:password@host`, the user and password of `[-a-zA-Z0-9_]`).
 */
const GATES = {
  aws: ['secret', /(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)/y],
  slack: ['hooks.slack.com', /hooks\.slack\.com/iy],
  basicauth: ['://', /:\/\/[-a-zA-Z0-9_]{1,256}:[-a-zA-Z0-9_]{1,256}@/y],
} as const;
type Gate = keyof typeof GATES;

/** The anchors of the secret rules: each needle (its case checked where found) and each gate's start. */
export const SECRET_ANCHORS: readonly Anchor[] = [
  ...NEEDLES.map((needle) => ({ key: `secret:${needle}`, text: needle })),
  ...Object.entries(GATES).map(([gate, [text]]) => ({ key: `secret-gate:${gate}`, text })),
];

/** The {@link NEEDLES} in a text, from its {@link SECRET_ANCHORS} hits (each checked in its exact case). */
function needlesIn(text: string, hits: AnchorHits): Set<Needle> {
  const found = new Set<Needle>();
  for (const needle of NEEDLES)
    if (hits.starts.get(`secret:${needle}`)?.some((start) => text.startsWith(needle, start)))
      found.add(needle);
  return found;
}

/** Whether the pattern of `gate` matches somewhere in a text (where its anchor starts). */
function gateOpen(text: string, hits: AnchorHits, gate: Gate): boolean {
  const pattern = GATES[gate][1];
  return (
    hits.starts.get(`secret-gate:${gate}`)?.some((start) => {
      pattern.lastIndex = start;
      return pattern.test(text);
    }) ?? false
  );
}

/**
 * What the text must contain for each rule of the recommended set to find anything: the literal
 * part of every pattern the rule runs on a text file (its options left at their defaults). A
 * rule whose needles are all absent is not run, which saves a pass of its patterns over a large
 * result (and the linter's own pass when no rule is left); a rule not listed here (one a later
 * release adds) always runs.
 */
const RULE_NEEDLES: Readonly<
  Record<string, (found: ReadonlySet<Needle>, gate: (gate: Gate) => boolean) => boolean>
> = {
  // Only the secret access key is scanned by default (the key ID and account ID scans are off).
  '@secretlint/secretlint-rule-aws': (_, gate) => gate('aws'),
  // Reads private keys from `.json` and `.p12` files only; a result is scanned as `.txt`.
  '@secretlint/secretlint-rule-gcp': () => false,
  '@secretlint/secretlint-rule-npm': (found) =>
    found.has('npm_') || found.has('_authToken=') || found.has(':x-oauth-basic@'),
  '@secretlint/secretlint-rule-slack': (found, gate) =>
    found.has('xox') || found.has('xapp-') || gate('slack'),
  '@secretlint/secretlint-rule-basicauth': (_, gate) => gate('basicauth'),
  '@secretlint/secretlint-rule-openai': (found) => found.has('T3BlbkFJ'),
  '@secretlint/secretlint-rule-linear': (found) => found.has('lin_api_'),
  '@secretlint/secretlint-rule-privatekey': (found) => found.has('PRIVATE KEY'),
  '@secretlint/secretlint-rule-sendgrid': (found) => found.has('SG.'),
  '@secretlint/secretlint-rule-shopify': (found) =>
    found.has('shppa_') || found.has('shpca_') || found.has('shpat_') || found.has('shpss_'),
  '@secretlint/secretlint-rule-github': (found) =>
    found.has('ghp_') ||
    found.has('gho_') ||
    found.has('ghu_') ||
    found.has('ghs_') ||
    found.has('ghr_') ||
    found.has('github_pat_'),
  '@secretlint/secretlint-rule-1password': (found) => found.has('ops_ey'),
  // Acts only on `secretlint-disable` comments.
  '@secretlint/secretlint-rule-filter-comments': (found) => found.has('secretlint-'),
};

/** The rules and linter, loaded with the first scan (the package root stays light). */
let linter:
  | Promise<{
      lint: (
        text: string,
        found: ReadonlySet<Needle>,
        gate: (gate: Gate) => boolean,
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
      lint: async (text: string, found: ReadonlySet<Needle>, gate: (gate: Gate) => boolean) => {
        const wanted = entries.filter((entry) => entry.needed(found, gate)).map((entry) => entry.descriptor);
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
 * (`secret:GITHUB_TOKEN`), and the {@link EXTRA_RULES}; `hits`: the text's {@link SECRET_ANCHORS}. The value never leaves this function but as a range.
 */
export async function findSecrets(text: string, location: string, hits: AnchorHits): Promise<Finding[]> {
  // Every rule needs a run of at least 16 characters without spaces: short texts skip the linter.
  if (text.length < 16) return [];
  const { lint } = await load();
  const found = needlesIn(text, hits);
  const gates = new Map<Gate, boolean>();
  const gate = (name: Gate) => {
    const known = gates.get(name);
    if (known !== undefined) return known;
    const open = gateOpen(text, hits, name);
    gates.set(name, open);
    return open;
  };
  const findings: Finding[] = (await lint(text, found, gate)).map(({ messageId, range }) => ({
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
