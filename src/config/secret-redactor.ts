import type { McpToolsConfig, ServerConfig } from './config-types.js';
import { REDACTED } from './redact-url.js';
import { serverSecrets, urlSecrets } from './server-secrets.js';

/** Shorter values, and values that are ordinary words or small numbers, would redact prose. */
const MIN_SECRET_LENGTH = 4;
const ordinaryValue = /^(true|false|null|undefined|yes|no|on|off|\d{1,5})$/i;
/** Deeper values are left as they are (results are bounded to 128 levels before they get here). */
const MAX_DEPTH = 256;

/**
 * Replaces known secret values with `***` in any text that leaves mcptools: error messages,
 * their causes and stacks, status, warnings and error results. Built once per configuration
 * from the values config redaction finds ({@link serverSecrets}); each secret is also matched
 * in its URL-encoded and JSON-escaped forms.
 *
 * @example
 * const redactor = SecretRedactor.forServer(config.servers.github);
 * redactor.text('upstream rejected key sk-123456'); // 'upstream rejected key ***'
 */
export class SecretRedactor {
  /** The values matched, longest first (so overlapping secrets redact fully). */
  secrets: readonly string[];

  constructor(secrets: Iterable<string>) {
    this.secrets = matchedForms(secrets, []);
  }

  /**
   * Adds `secrets` to the values hidden, in place: every holder of this redactor hides them from
   * now on (a configuration reloaded with a new server's credentials).
   */
  extend(secrets: Iterable<string>): void {
    this.secrets = matchedForms(secrets, this.secrets);
  }

  /** The secrets of one server entry. */
  static forServer(config: ServerConfig): SecretRedactor {
    return new SecretRedactor(serverSecrets(config));
  }

  /** The secrets of every server of a configuration and of its embeddings endpoint. */
  static forConfig(config: McpToolsConfig): SecretRedactor {
    const secrets = Object.values(config.servers).flatMap(serverSecrets);
    const search = config.router?.semanticSearch;
    if (search) {
      if (search.apiKey !== undefined) secrets.push(search.apiKey);
      secrets.push(...Object.values(search.headers ?? {}), ...urlSecrets(search.url));
    }
    return new SecretRedactor(secrets);
  }

  /** `true` when there is nothing to redact. */
  get empty(): boolean {
    return this.secrets.length === 0;
  }

  /** `text` with every secret replaced by `***`. */
  text(text: string): string {
    let redacted = text;
    for (const secret of this.secrets) {
      if (redacted.includes(secret)) redacted = redacted.split(secret).join(REDACTED);
    }
    return redacted;
  }

  /**
   * A copy of a JSON-like value with secrets redacted in every string (keys included); parts
   * holding no secret are shared, not copied. Non-plain objects pass through untouched.
   */
  value<T>(value: T): T {
    if (this.empty) return value;
    return this.#value(value, 0) as T;
  }

  /**
   * Redacts an error in place, down its `cause` chain: `message`, `stack`, and string values in
   * `data` (an {@link McpToolsError}'s) are rewritten. Returns the same error for chaining.
   */
  error<E>(error: E): E {
    if (this.empty) return error;
    const seen = new Set<unknown>();
    for (let current: unknown = error, depth = 0; current instanceof Error && depth < 8; depth++) {
      if (seen.has(current)) break;
      seen.add(current);
      const target = current as Error & { data?: unknown };
      rewrite(target, 'message', this.text(target.message));
      if (typeof target.stack === 'string') rewrite(target, 'stack', this.text(target.stack));
      if (target.data !== undefined && typeof target.data === 'object') {
        rewrite(target, 'data', this.value(target.data));
      }
      current = target.cause;
    }
    return error;
  }

  #value(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      value.forEach((item, index) => {
        const redacted = this.#value(item, depth + 1);
        if (redacted !== item) {
          copy ??= [...value];
          copy[index] = redacted;
        }
      });
      return copy ?? value;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return value;
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const redactedKey = this.text(key);
      const redacted = this.#value(item, depth + 1);
      if (redacted !== item || redactedKey !== key) {
        copy ??= { ...(value as Record<string, unknown>) };
        if (redactedKey !== key) delete copy[key];
        Object.defineProperty(copy, redactedKey, {
          value: redacted,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return copy ?? value;
  }
}

/** `known` and every usable secret of `secrets` in its plain, URL-encoded and JSON-escaped forms, longest first. */
function matchedForms(secrets: Iterable<string>, known: readonly string[]): string[] {
  const all = new Set<string>(known);
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH || ordinaryValue.test(secret))
      continue;
    all.add(secret);
    all.add(encodeURIComponent(secret));
    all.add(JSON.stringify(secret).slice(1, -1));
  }
  return [...all].filter((secret) => secret.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/**
 * Sets `key` on an error as an own data property when it changed. DOMException's `message` is a
 * prototype getter that plain assignment cannot shadow; a frozen error keeps its text.
 */
function rewrite(target: object, key: string, value: unknown): void {
  if ((target as Record<string, unknown>)[key] === value) return;
  const enumerable = Object.getOwnPropertyDescriptor(target, key)?.enumerable ?? false;
  try {
    Object.defineProperty(target, key, { value, writable: true, configurable: true, enumerable });
  } catch {
    // Not extensible or not configurable: nothing more can be done in place.
  }
}
