import { createHash } from 'node:crypto';

/** How exposed tool names are built. */
export interface NamingOptions {
  /** Between the server part and the tool part. Default `__`. */
  separator?: string;
  /** Longest exposed name. Default 64, the strictest provider rule. */
  maxLength?: number;
}

/** The strictest provider rule for tool names: OpenAI, Anthropic and Gemini all accept it. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const SERVER_PART_MAX = 24;
const HASH_LENGTH = 6;

/** Six hex characters of a SHA-256 of `text`: short, stable, collision-resistant enough. */
export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, HASH_LENGTH);
}

/** Replaces every character a provider would reject with `_`. */
export function sanitizeNamePart(part: string): string {
  const cleaned = part.replace(/[^A-Za-z0-9_-]/g, '_');
  return cleaned.length > 0 ? cleaned : '_';
}

/**
 * Makes `name` legal and at most `maxLength` long. A name that is already legal is kept;
 * otherwise its start is kept and the rest replaced by `_` + a hash of the whole original,
 * so that two different originals never shorten to the same name.
 */
export function legalizeName(name: string, maxLength = 64, hashSource = name): string {
  const clean = sanitizeNamePart(name);
  if (clean === name && name.length <= maxLength) return name;
  const suffix = `_${shortHash(hashSource)}`;
  if (clean === name && clean.length <= maxLength) return clean;
  const keep = Math.max(1, maxLength - suffix.length);
  return `${clean.slice(0, keep)}${suffix}`;
}

/**
 * The part of every exposed name of `server`'s tools before the separator: the server name
 * itself when it is legal and at most 24 characters (half of `maxLength` when that is less),
 * else its start and `_` + a hash of the whole name. It depends on the server alone, never on
 * a tool, so all of a server's tools share one prefix (hosts' permission globs such as
 * `mcp__mcptools__<server>__*` match them all).
 */
export function serverNamePart(server: string, maxLength = 64): string {
  const max = Math.min(SERVER_PART_MAX, Math.max(HASH_LENGTH + 2, Math.floor(maxLength / 2)));
  const clean = sanitizeNamePart(server);
  if (clean === server && server.length <= max) return server;
  return `${clean.slice(0, max - HASH_LENGTH - 1)}_${shortHash(server)}`;
}

/** What every exposed name of `server`'s tools starts with: its server part and the separator. */
export function namespacePrefix(server: string, options: NamingOptions = {}): string {
  return `${serverNamePart(server, options.maxLength ?? 64)}${sanitizeNamePart(options.separator ?? '__')}`;
}

/**
 * The exposed name of `tool` from `server`: `<server part><separator><tool>`, always matching
 * {@link TOOL_NAME_PATTERN} and at most `maxLength` long. The server part is
 * {@link serverNamePart}; a tool part that is illegal or too long keeps its start and gets
 * `_` + a hash of the server and tool. Deterministic: the same inputs always give the same name.
 *
 * @example
 * namespacedName('files', 'read_file'); // 'files__read_file'
 */
export function namespacedName(server: string, tool: string, options: NamingOptions = {}): string {
  const maxLength = options.maxLength ?? 64;
  const prefix = namespacePrefix(server, options);
  const raw = `${prefix}${tool}`;
  if (TOOL_NAME_PATTERN.test(raw) && raw.length <= maxLength) return raw;
  const suffix = `_${shortHash(`${server}\u0000${tool}`)}`;
  const room = Math.max(1, maxLength - prefix.length - suffix.length);
  return `${prefix}${sanitizeNamePart(tool).slice(0, room)}${suffix}`.slice(0, maxLength);
}

/**
 * A name that is not in `taken`: `name` itself when free, else `name` shortened to fit and
 * suffixed with a hash of `identity` (and a counter in the unlikely case that is taken too).
 */
export function uniqueName(
  name: string,
  identity: string,
  taken: (candidate: string) => boolean,
  maxLength = 64,
): string {
  if (!taken(name)) return name;
  for (let attempt = 0; ; attempt++) {
    const suffix = `_${shortHash(attempt === 0 ? identity : `${identity}\u0000${attempt}`)}`;
    const candidate = `${name.slice(0, Math.max(1, maxLength - suffix.length))}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
}
