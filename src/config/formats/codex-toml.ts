import { isPlainObject } from '../../json/is-plain-object.js';
import { configError } from '../config-error.js';
import type { ConfigReadContext } from '../config-read-context.js';
import type { McpToolsConfig, ServerConfig } from '../config-types.js';
import { ignoredKeyWarning } from '../ignored-key-warning.js';
import { normalizeServer } from '../normalize-server.js';
import { stringifyValues } from './stringify-values.js';

const envVarName = /^[A-Za-z_][A-Za-z0-9_]*$/;

const handledKeys = new Set([
  'command',
  'args',
  'env',
  'env_vars',
  'cwd',
  'url',
  'bearer_token',
  'bearer_token_env_var',
  'http_headers',
  'env_http_headers',
  'enabled',
  'startup_timeout_sec',
  'startup_timeout_ms',
  'tool_timeout_sec',
  'enabled_tools',
  'disabled_tools',
]);

/**
 * Reads the `[mcp_servers.<name>]` tables of Codex's `config.toml`; the rest of the file is
 * Codex's own and is skipped. Secrets named by `bearer_token_env_var` and `env_http_headers` are
 * read from the environment; keys we do not use are ignored with a warning.
 */
export function readCodexToml(value: unknown, context: ConfigReadContext): McpToolsConfig {
  if (!isPlainObject(value)) throw configError({ file: context.file }, 'must be a TOML table');
  const tables = value.mcp_servers ?? {};
  if (!isPlainObject(tables))
    throw configError({ file: context.file, field: 'mcp_servers' }, 'must be a table');
  const servers: Record<string, ServerConfig> = {};
  for (const [name, entry] of Object.entries(tables)) {
    if (!isPlainObject(entry)) throw configError({ file: context.file, server: name }, 'must be a table');
    const { mapped, fieldNames } = mapEntry(name, entry, context);
    servers[name] = normalizeServer(name, mapped, context, { fieldNames, basePath: ['mcp_servers', name] });
  }
  return { servers };
}

function mapEntry(
  name: string,
  entry: Record<string, unknown>,
  context: ConfigReadContext,
): { mapped: Record<string, unknown>; fieldNames: Record<string, string> } {
  const location = (field: string) => ({ file: context.file, server: name, field });
  const mapped: Record<string, unknown> = {};
  const fieldNames: Record<string, string> = {};
  for (const key of ['command', 'args', 'cwd', 'url', 'enabled'] as const) {
    if (entry[key] !== undefined) mapped[key] = entry[key];
  }
  // Codex speaks Streamable HTTP only; it has no SSE fallback.
  if (entry.url !== undefined && entry.command === undefined) mapped.type = 'streamable-http';
  const env = stringifyValues(entry.env ?? {});
  if (Array.isArray(entry.env_vars) && isPlainObject(env)) {
    // `env_vars` forwards variables from Codex's own environment when they are set.
    for (const variable of entry.env_vars) {
      if (typeof variable === 'string' && context.env[variable] !== undefined)
        env[variable] = `\${${variable}}`;
    }
  }
  if (entry.env !== undefined || (isPlainObject(env) && Object.keys(env).length > 0)) mapped.env = env;
  const headers: Record<string, unknown> = isPlainObject(entry.http_headers) ? { ...entry.http_headers } : {};
  if (entry.http_headers !== undefined && !isPlainObject(entry.http_headers))
    mapped.headers = entry.http_headers;
  fieldNames.headers = 'http_headers';
  if (isPlainObject(entry.env_http_headers)) {
    for (const [header, variable] of Object.entries(entry.env_http_headers)) {
      if (typeof variable !== 'string' || !envVarName.test(variable)) {
        throw configError(
          location(`env_http_headers.${header}`),
          'must be the name of an environment variable',
        );
      }
      // As in Codex, a header whose variable is unset is left out rather than failing.
      if (context.env[variable] !== undefined) headers[header] = `\${${variable}}`;
    }
  }
  if (mapped.headers === undefined && Object.keys(headers).length > 0) mapped.headers = headers;
  if (entry.bearer_token_env_var !== undefined) {
    const variable = entry.bearer_token_env_var;
    if (typeof variable !== 'string' || !envVarName.test(variable)) {
      throw configError(location('bearer_token_env_var'), 'must be the name of an environment variable');
    }
    mapped.auth = { type: 'bearer', token: `\${${variable}}` };
    fieldNames.auth = 'bearer_token_env_var';
    fieldNames['auth.token'] = 'bearer_token_env_var';
  } else if (entry.bearer_token !== undefined) {
    mapped.auth = { type: 'bearer', token: entry.bearer_token };
    fieldNames.auth = 'bearer_token';
    fieldNames['auth.token'] = 'bearer_token';
  }
  const startup = entry.startup_timeout_sec ?? entry.startup_timeout_ms;
  if (startup !== undefined) {
    const inSeconds = entry.startup_timeout_sec !== undefined;
    mapped.connectTimeoutMs =
      typeof startup === 'number' ? Math.round(inSeconds ? startup * 1000 : startup) : startup;
    fieldNames.connectTimeoutMs = inSeconds ? 'startup_timeout_sec' : 'startup_timeout_ms';
  }
  if (entry.tool_timeout_sec !== undefined) {
    const seconds = entry.tool_timeout_sec;
    mapped.callTimeoutMs = typeof seconds === 'number' ? Math.round(seconds * 1000) : seconds;
    fieldNames.callTimeoutMs = 'tool_timeout_sec';
  }
  if (entry.enabled_tools !== undefined || entry.disabled_tools !== undefined) {
    const tools: Record<string, unknown> = {};
    if (entry.enabled_tools !== undefined) tools.allow = entry.enabled_tools;
    if (entry.disabled_tools !== undefined) tools.deny = entry.disabled_tools;
    mapped.tools = tools;
    fieldNames['tools.allow'] = 'enabled_tools';
    fieldNames['tools.deny'] = 'disabled_tools';
  }
  for (const key of Object.keys(entry)) {
    if (handledKeys.has(key)) continue;
    context.warn(ignoredKeyWarning(location(key), handledKeys));
  }
  return { mapped, fieldNames };
}
