import { isAbsolute, resolve } from 'node:path';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { isPlainObject } from '../json/is-plain-object.js';
import { closestKey } from './closest-key.js';
import { configError } from './config-error.js';
import { serverEntryKeys } from './config-keys.js';
import type { ConfigReadContext } from './config-read-context.js';
import type { ServerConfig } from './config-types.js';
import { displayFieldName } from './display-field-name.js';
import { interpolateEnv } from './interpolate-env.js';
import { protocolMode } from './protocol-mode.js';
import { rememberInterpolatedValues } from './server-secrets.js';

/** Options of {@link normalizeServer}. */
export interface NormalizeServerOptions {
  /** Maps our field names to the ones the user wrote, for messages. */
  fieldNames?: Readonly<Record<string, string>>;
  /** Editor variables (`workspaceFolder`, `userHome`) for VS Code and Cursor files. */
  variables?: Readonly<Record<string, string>>;
  /** Path of the entry inside the file (default `["servers", name]`). */
  basePath?: (string | number)[];
}

const transportTypes = ['stdio', 'streamable-http', 'sse', 'http'];

/**
 * Interpolates `${VAR}` in one server entry written in the `mcptools.json` shape and validates it
 * into a {@link ServerConfig}. Every reader funnels through here, so every format gets the same
 * checks and the same errors (file, server, field; never a value).
 */
export function normalizeServer(
  name: string,
  entry: unknown,
  context: ConfigReadContext,
  options: NormalizeServerOptions = {},
): ServerConfig {
  const basePath = options.basePath ?? ['servers', name];
  const locate = (path: (string | number)[] = []) => ({
    file: context.file,
    server: name,
    field: displayFieldName(path, options.fieldNames),
    path: [...basePath, ...path],
  });
  // Assigning this name to the servers map would replace its prototype instead.
  if (name === '__proto__' || name === '') throw configError(locate(), 'is not an allowed server name');
  if (!isPlainObject(entry)) throw configError(locate(), 'must be an object');
  const disabled = entry.enabled === false;
  const values: string[] = [];
  const unsetBefore = context.unset.length;
  const interpolated = interpolateEntry(entry, (value, path) => {
    const interpolate = () =>
      interpolateEnv(value, {
        env: context.env,
        variables: options.variables,
        location: locate(path),
        warn: context.warn,
        vault: context.vault,
        // A variable in the command or working directory is a path, not a credential.
        onValue: (found) => {
          if (path[0] !== 'command' && path[0] !== 'cwd') values.push(found);
        },
      });
    try {
      return interpolate();
    } catch (error) {
      const variable = McpToolsError.isInstance(error) ? error.data.variable : undefined;
      if (typeof variable !== 'string') throw error;
      // A disabled server is never started, so a variable it lacks must not break the others.
      if (disabled)
        context.warn(`${(error as Error).message} (the server is disabled, so this is not an error)`);
      else context.unset.push({ location: locate(path), variable });
      return value;
    }
  });
  // The file is refused with every unset variable named (readConfigValue); this entry's shape
  // is not checked meanwhile, since a placeholder left in it would be reported as a bad value.
  if (context.unset.length > unsetBefore) return interpolated as unknown as ServerConfig;
  if (interpolated.type === undefined) {
    const inferred = inferServerType(interpolated);
    if (inferred !== undefined) interpolated.type = inferred;
    else {
      // A misspelt `command` or `url` is the likely cause; name it rather than the missing key.
      const stray = Object.keys(interpolated).find((key) => !serverEntryKeys.includes(key));
      if (stray !== undefined) {
        const hint = closestKey(stray, serverEntryKeys);
        throw configError(locate([stray]), `unknown field${hint ? ` (did you mean "${hint}"?)` : ''}`);
      }
      throw configError(locate(), 'needs "command" (a stdio server) or "url" (an HTTP server)');
    }
  }
  const type = interpolated.type;
  if (typeof type !== 'string' || !transportTypes.includes(type)) {
    throw configError(
      locate(['type']),
      `must be one of ${transportTypes.map((known) => `"${known}"`).join(', ')}`,
    );
  }
  const server = context.validator.server(interpolated, {
    file: context.file,
    server: name,
    basePath,
    fieldNames: options.fieldNames,
  });
  if (server.protocol !== undefined)
    server.protocol = protocolMode(server.protocol, locate(['protocol']), context.warn);
  if (server.type === 'stdio' && server.cwd !== undefined) server.cwd = resolvePath(server.cwd, context);
  rememberInterpolatedValues(server, values);
  return server;
}

/**
 * The transport an entry written without `type` means, as Claude Desktop's `mcpServers` do:
 * `stdio` with a `command`, `http` (Streamable HTTP, then SSE) with a `url`.
 */
export function inferServerType(entry: object): 'stdio' | 'http' | undefined {
  if ('command' in entry) return 'stdio';
  if ('url' in entry) return 'http';
  return undefined;
}

/** Resolves `~/…` against the home directory and relative paths against the config's directory. */
export function resolvePath(path: string, context: ConfigReadContext): string {
  if (path === '~' || path.startsWith('~/')) return resolve(context.homeDir, path.slice(2));
  if (isAbsolute(path) || context.baseDir === undefined) return path;
  return resolve(context.baseDir, path);
}

type Interpolate = (value: string, path: (string | number)[]) => string;

/** Copies the entry with every string that may hold `${VAR}` interpolated; other values untouched. */
function interpolateEntry(entry: Record<string, unknown>, interpolate: Interpolate): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...entry };
  for (const key of ['command', 'cwd', 'url']) {
    const value = copy[key];
    if (typeof value === 'string') copy[key] = interpolate(value, [key]);
  }
  if (Array.isArray(copy.args)) {
    copy.args = copy.args.map((value, index) =>
      typeof value === 'string' ? interpolate(value, ['args', index]) : value,
    );
  }
  for (const key of ['env', 'headers']) {
    const map = copy[key];
    if (!isPlainObject(map)) continue;
    copy[key] = Object.fromEntries(
      Object.entries(map).map(([name, value]) => [
        name,
        typeof value === 'string' ? interpolate(value, [key, name]) : value,
      ]),
    );
  }
  if (isPlainObject(copy.auth)) {
    const auth: Record<string, unknown> = { ...copy.auth };
    for (const key of ['token', 'key', 'header', 'clientId', 'clientSecret', 'clientMetadataUrl']) {
      const value = auth[key];
      if (typeof value === 'string') auth[key] = interpolate(value, ['auth', key]);
    }
    if (Array.isArray(auth.scopes)) {
      auth.scopes = auth.scopes.map((value, index) =>
        typeof value === 'string' ? interpolate(value, ['auth', 'scopes', index]) : value,
      );
    }
    copy.auth = auth;
  }
  return copy;
}
