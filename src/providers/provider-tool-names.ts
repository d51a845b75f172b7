import { legalizeName, TOOL_NAME_PATTERN, uniqueName } from '../registry/tool-name.js';
import type { Tool } from '../tool/tool.js';
import type { ProviderName } from './conversion-report.js';

/**
 * Gemini's function-name rule: starts with a letter or underscore, then letters, digits,
 * underscores, dots, colons or dashes, at most 64 (`@google/genai` `FunctionDeclaration.name`).
 */
export const GEMINI_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

/** The name rule of each provider; OpenAI, Anthropic and the AI SDK share the strictest one. */
export const PROVIDER_NAME_PATTERNS: Record<ProviderName, RegExp> = {
  openai: TOOL_NAME_PATTERN,
  anthropic: TOOL_NAME_PATTERN,
  'ai-sdk': TOOL_NAME_PATTERN,
  gemini: GEMINI_NAME_PATTERN,
};

function legalFor(name: string, provider: ProviderName): string {
  if (PROVIDER_NAME_PATTERNS[provider].test(name)) return name;
  const legal = legalizeName(name);
  if (provider !== 'gemini' || GEMINI_NAME_PATTERN.test(legal)) return legal;
  // Gemini also wants a letter or underscore first (`1password__x` → `_1password__x`).
  return legalizeName(`_${legal}`, 64, name);
}

/**
 * The name each tool gets for `provider`, in the order of `tools`: the tool's own name when the
 * provider accepts it, else a deterministic legal form (`legalizeName`), made unique against the
 * names before it. The same list always gives the same names, so the map can be rebuilt to route
 * a provider's tool call back to its {@link Tool}.
 */
export function providerToolNames(tools: readonly Tool[], provider: ProviderName): Map<string, Tool> {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    const name = uniqueName(legalFor(tool.name, provider), tool.name, (candidate) => byName.has(candidate));
    byName.set(name, tool);
  }
  return byName;
}
