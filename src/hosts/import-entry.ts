import { isPlainObject } from '../json/is-plain-object.js';

/** The transport a host's URL entry means, in `mcptools.json` terms. */
export type UrlTransport = 'streamable-http' | 'sse' | 'http';

/** How one host's entries read, for {@link importEntry}. */
export interface ImportRules {
  /** The keys that hold the URL, first match wins (`url`, `serverUrl`, `httpUrl`). */
  urlKeys: readonly string[];
  /** The transport of a URL entry, from the entry and the key its URL was found under. */
  transport(entry: Record<string, unknown>, urlKey: string): UrlTransport;
  /** Rewrites the host's environment references (`${env:X}`, `$X`) as mcptools' `${X}`. */
  rewriteReferences?: (text: string) => string;
  /** Header entries the host keeps outside `headers` (Codex's bearer and env headers). */
  extraHeaders?: (entry: Record<string, unknown>) => Record<string, string>;
}

/** A host entry `import` could not carry over, and why (never a value of it). */
export class UnimportableEntry extends Error {}

/**
 * Converts one of a host's server entries into a `mcptools.json` entry: the command, arguments,
 * environment and folder of a stdio server, or the URL, transport and headers of a remote one.
 * Values are copied as written (environment references rewritten, never resolved), so a secret
 * referenced by name stays a reference.
 */
export function importEntry(raw: unknown, rules: ImportRules): Record<string, unknown> {
  if (!isPlainObject(raw)) throw new UnimportableEntry('is not an object');
  const rewrite = rules.rewriteReferences ?? ((text: string) => text);
  const strings = (value: unknown, field: string): Record<string, string> | undefined => {
    if (value === undefined) return undefined;
    if (!isPlainObject(value) || Object.values(value).some((item) => typeof item !== 'string'))
      throw new UnimportableEntry(`field "${field}" is not a map of strings`);
    return Object.fromEntries(
      Object.entries(value as Record<string, string>).map(([k, v]) => [k, rewrite(v)]),
    );
  };
  const out: Record<string, unknown> = {};
  if (typeof raw.command === 'string') {
    out.command = rewrite(raw.command);
    if (raw.args !== undefined) {
      if (!Array.isArray(raw.args) || raw.args.some((arg) => typeof arg !== 'string'))
        throw new UnimportableEntry('field "args" is not a list of strings');
      out.args = (raw.args as string[]).map(rewrite);
    }
    const env = strings(raw.env, 'env');
    if (env && Object.keys(env).length > 0) out.env = env;
    const cwd = raw.cwd ?? raw.workingDirectory;
    if (typeof cwd === 'string') out.cwd = rewrite(cwd);
  } else {
    const urlKey = rules.urlKeys.find((key) => typeof raw[key] === 'string');
    if (urlKey === undefined) throw new UnimportableEntry('has neither a command nor a URL');
    out.type = rules.transport(raw, urlKey);
    out.url = rewrite(raw[urlKey] as string);
    const headers = { ...strings(raw.headers, 'headers'), ...rules.extraHeaders?.(raw) };
    if (Object.keys(headers).length > 0) out.headers = headers;
  }
  if (raw.disabled === true || raw.enabled === false) out.enabled = false;
  const text = JSON.stringify(out);
  if (/\$\{input:/.test(text))
    throw new UnimportableEntry('uses VS Code input variables, which only VS Code can ask for');
  return out;
}

/** `${env:NAME}` (VS Code, Cursor, Windsurf) as mcptools' `${NAME}`. */
export function rewriteEditorReferences(text: string): string {
  return text.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => `\${${name}}`);
}

/** `$NAME` (Gemini CLI also accepts the bare form) as mcptools' `${NAME}`; `${NAME}` is kept. */
export function rewriteBareReferences(text: string): string {
  return text.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => `\${${name}}`);
}
