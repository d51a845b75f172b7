import type { Finding } from './finding.js';

/** The rule set and linter, loaded with the first scan (the package root stays light). */
let linter:
  | Promise<{
      lint: (
        text: string,
      ) => Promise<Array<{ ruleId: string; messageId: string; range: readonly [number, number] }>>;
    }>
  | undefined;

function load() {
  linter ??= (async () => {
    const [{ lintSource }, { creator }, { secretLintProfiler }] = await Promise.all([
      import('@secretlint/core'),
      import('@secretlint/secretlint-rule-preset-recommend'),
      import('@secretlint/profiler'),
    ]);
    // The linter marks the performance timeline for every rule of every lint, and its profiler
    // keeps each mark and scans all of them at the next (fixed upstream only in releases that
    // need Node 22): screening every result, a gateway would slow down with each one and keep
    // every mark. Its measures are never read here, so its marks are not made.
    secretLintProfiler.mark = () => undefined;
    const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] };
    return {
      lint: async (text: string) =>
        (
          await lintSource({
            source: { content: text, filePath: '/mcptools-scan.txt', ext: '.txt', contentType: 'text' },
            options: { config, maskSecrets: true },
          })
        ).messages.map((message) => ({
          ruleId: message.ruleId,
          messageId: message.messageId,
          range: message.range,
        })),
    };
  })();
  return linter;
}

/**
 * Well-known formats the recommended rule set lacks, each one documented by its issuer and
 * anchored on its fixed prefix (no entropy guesses): GitLab personal tokens, Anthropic API keys,
 * Stripe live keys and Azure storage account keys.
 */
const EXTRA_RULES: ReadonlyArray<[string, RegExp]> = [
  ['GITLAB_TOKEN', /\bglpat-[0-9A-Za-z_-]{20,}/g],
  ['ANTHROPIC_API_KEY', /\bsk-ant-(?:api|admin)\d{2}-[0-9A-Za-z_-]{80,}/g],
  ['STRIPE_LIVE_KEY', /\b(?:sk|rk)_live_[0-9A-Za-z]{20,}/g],
  ['AZURE_STORAGE_KEY', /\bAccountKey=[0-9A-Za-z+/]{80,}={0,2}/g],
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
  const findings: Finding[] = (await lint(text)).map(({ messageId, range }) => ({
    detector: `secret:${messageId}`,
    location,
    severity: 'high',
    range: [range[0], range[1]],
  }));
  for (const [rule, pattern] of EXTRA_RULES)
    for (const match of text.matchAll(pattern))
      findings.push({
        detector: `secret:${rule}`,
        location,
        severity: 'high',
        range: [match.index, match.index + match[0].length],
      });
  return findings;
}
