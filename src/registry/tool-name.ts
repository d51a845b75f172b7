import { createHash } from 'node:crypto';

/** How exposed tool names are built (DESIGN.md, "Names"). */
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
 * The exposed name of `tool` from `server`: `<server><separator><tool>`, always matching
 * {@link TOOL_NAME_PATTERN} and at most `maxLength` long. Deterministic: the same inputs
 * always give the same name.
 *
 * @example
 * namespacedName('files', 'read_file'); // 'files__read_file'
 */
export function namespacedName(server: string, tool: string, options: NamingOptions = {}): string {
  const separator = options.separator ?? '__';
  const maxLength = options.maxLength ?? 64;
  const raw = `${server}${separator}${tool}`;
  if (TOOL_NAME_PATTERN.test(raw) && raw.length <= maxLength) return raw;
  const hashSource = `${server}\u0000${tool}`;
  const serverPart = sanitizeNamePart(server).slice(0, SERVER_PART_MAX);
  const prefix = `${serverPart}${sanitizeNamePart(separator)}`;
  const toolClean = sanitizeNamePart(tool);
  const candidate = `${prefix}${toolClean}`;
  const suffix = `_${shortHash(hashSource)}`;
  if (candidate.length <= maxLength && candidate !== raw) {
    // Characters were replaced: add the hash so `a.b` and `a_b` stay apart.
    const room = maxLength - prefix.length - suffix.length;
    return `${prefix}${toolClean.slice(0, Math.max(1, room))}${suffix}`.slice(0, maxLength);
  }
  const room = Math.max(1, maxLength - prefix.length - suffix.length);
  return `${prefix}${toolClean.slice(0, room)}${suffix}`.slice(0, maxLength);
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
