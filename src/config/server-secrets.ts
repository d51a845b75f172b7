import type { ServerConfig } from './config-types.js';
import { decodeUrlPart, urlBasicCredentials } from './url-basic-credentials.js';

/** Where {@link normalizeServer} keeps the values `${VAR}` placeholders took (non-enumerable). */
const interpolatedValues = Symbol.for('mcptools.interpolatedValues');

const secretFlag =
  /(token|secret|passw|api[-_]?key|access[-_]?key|private[-_]?key|auth|credential|bearer|cookie)/i;

/** `true` for a command-line flag whose value is a secret (`--token`, `--api-key`, `-password`). */
export function isSecretFlag(flag: string): boolean {
  return secretFlag.test(flag);
}

/**
 * Remembers on a parsed server entry the values its `${VAR}` placeholders were replaced with,
 * so that they are redacted wherever they appear, even inside a longer field. The property is
 * non-enumerable: JSON, `console.log` and spreads never show it.
 */
export function rememberInterpolatedValues(server: ServerConfig, values: readonly string[]): void {
  if (values.length === 0) return;
  Object.defineProperty(server, interpolatedValues, { value: [...values], enumerable: false });
}

/**
 * Every value in a server's configuration that must never appear in messages, status, events or
 * error results: env values, header values (and the credential after `Bearer `/`Basic `), auth
 * tokens and keys, URL user name, password and query values (and a query key with no value, which
 * is often the key itself), values of secret-looking flags in `args`, and every `${VAR}` value.
 */
export function serverSecrets(config: ServerConfig): string[] {
  const secrets: string[] = [];
  const remembered = (config as unknown as Record<symbol, unknown>)[interpolatedValues];
  if (Array.isArray(remembered)) secrets.push(...(remembered as string[]));
  if (config.type === 'stdio') {
    secrets.push(...Object.values(config.env ?? {}));
    secrets.push(...argumentSecrets(config.args ?? []));
    return secrets;
  }
  for (const value of Object.values(config.headers ?? {})) secrets.push(value, ...schemeCredential(value));
  if (config.auth?.type === 'bearer') secrets.push(config.auth.token);
  if (config.auth?.type === 'api-key') secrets.push(config.auth.key);
  if (config.auth?.type === 'oauth' && config.auth.clientSecret) secrets.push(config.auth.clientSecret);
  if (config.auth?.type === 'tokenExchange') secrets.push(config.auth.clientSecret);
  secrets.push(...urlSecrets(config.url));
  return secrets;
}

/** User name, password, query values and value-less query keys of `url`, raw and decoded. */
export function urlSecrets(url: string): string[] {
  const secrets: string[] = [];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return secrets;
  }
  for (const part of [parsed.username, parsed.password]) {
    if (part !== '') secrets.push(part, decodeUrlPart(part));
  }
  // What the Basic header built from the URL carries, so an echo of it is caught too.
  const basic = urlBasicCredentials(parsed);
  if (basic !== undefined) secrets.push(basic);
  for (const [key, value] of parsed.searchParams) secrets.push(value === '' ? key : value);
  return secrets;
}

/** `abc` from `Bearer abc`, `Basic abc`, `token abc`: the credential an upstream may echo alone. */
function schemeCredential(value: string): string[] {
  const match = /^\s*[A-Za-z][\w-]*\s+(\S+)\s*$/.exec(value);
  return match ? [match[1]!] : [];
}

function argumentSecrets(args: readonly string[]): string[] {
  const secrets: string[] = [];
  args.forEach((arg, index) => {
    const previous = index > 0 ? args[index - 1]! : '';
    if (/^-{1,2}[\w.-]+$/.test(previous) && isSecretFlag(previous) && !arg.startsWith('-')) secrets.push(arg);
    const assignment = /^(-{0,2}[\w.-]+)=(.+)$/s.exec(arg);
    if (assignment && isSecretFlag(assignment[1]!)) secrets.push(assignment[2]!);
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) secrets.push(...urlSecrets(arg));
    const bearer = /^bearer\s+(\S+)/i.exec(arg);
    if (bearer) secrets.push(bearer[1]!);
  });
  return secrets;
}
