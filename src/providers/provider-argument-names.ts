import { uniqueName } from '../registry/tool-name.js';
import type { ProviderName } from './conversion-report.js';
import { isSchemaRecord, type SchemaRecord } from './schema-record.js';

/**
 * Rules some providers apply to the top-level property names of a tool's parameters. Anthropic
 * rejects a request whose `input_schema.properties` keys fall outside `^[a-zA-Z0-9_.-]{1,64}$`
 * (its 400 "Property keys should match pattern"); Gemini documents parameter names as a letter
 * or underscore, then letters, digits and underscores, at most 64 (`FunctionDeclaration`).
 */
export const ARGUMENT_NAME_PATTERNS: Partial<Record<ProviderName, RegExp>> = {
  anthropic: /^[a-zA-Z0-9_.-]{1,64}$/,
  gemini: /^[A-Za-z_][A-Za-z0-9_]{0,63}$/,
};

/**
 * The top-level argument names of `schema` that `provider` would reject, each mapped from the
 * legal name the provider sees to the original: `{ 'filter_id_' → 'filter[id]' }`. Empty for
 * almost every tool. Deterministic, so converters and call routing agree without shared state.
 */
export function providerArgumentNames(schema: SchemaRecord, provider: ProviderName): Map<string, string> {
  const pattern = ARGUMENT_NAME_PATTERNS[provider];
  const renamed = new Map<string, string>();
  if (!pattern || !isSchemaRecord(schema.properties)) return renamed;
  const names = Object.keys(schema.properties);
  const taken = new Set(names.filter((name) => pattern.test(name)));
  for (const name of names) {
    if (pattern.test(name)) continue;
    let legal = name.replace(provider === 'gemini' ? /[^A-Za-z0-9_]/g : /[^a-zA-Z0-9_.-]/g, '_').slice(0, 57);
    if (legal === '' || (provider === 'gemini' && !/^[A-Za-z_]/.test(legal))) legal = `_${legal}`;
    const unique = uniqueName(legal, name, (candidate) => taken.has(candidate), 64);
    taken.add(unique);
    renamed.set(unique, name);
  }
  return renamed;
}

/** `schema` with its top-level properties (and `required`) renamed to what `provider` accepts. */
export function renameArguments(schema: SchemaRecord, renamed: Map<string, string>): SchemaRecord {
  if (renamed.size === 0 || !isSchemaRecord(schema.properties)) return schema;
  const toProvider = new Map([...renamed].map(([legal, original]) => [original, legal]));
  const properties: SchemaRecord = {};
  for (const [name, value] of Object.entries(schema.properties))
    properties[toProvider.get(name) ?? name] = value;
  const out: SchemaRecord = { ...schema, properties };
  if (Array.isArray(schema.required))
    out.required = schema.required.map((name) => toProvider.get(String(name)) ?? name);
  return out;
}

/** The arguments of a provider's tool call with renamed keys turned back into the originals. */
export function restoreArguments(
  args: Record<string, unknown>,
  renamed: Map<string, string>,
): Record<string, unknown> {
  if (renamed.size === 0) return args;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) out[renamed.get(key) ?? key] = value;
  return out;
}
