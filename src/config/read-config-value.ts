import { homedir } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import type { McpToolsError } from '../errors/mcp-tools-error.js';
import { isPlainObject } from '../json/is-plain-object.js';
import { configError, describeConfigLocation } from './config-error.js';
import type { ConfigReadContext, UnsetVariable } from './config-read-context.js';
import type { ConfigFormat, McpToolsConfig } from './config-types.js';
import type { ConfigValidator } from './config-validator.js';
import { detectConfigFormat } from './detect-config-format.js';
import { displayConfigPath } from './display-config-path.js';
import { readCodexToml } from './formats/codex-toml.js';
import { readMcpServersJson } from './formats/mcp-servers-json.js';
import { readMcpToolsJson } from './formats/mcptools-json.js';
import { readVsCodeJson } from './formats/vscode.js';
import { SecretVault } from './secret-vault.js';
import type { VaultLookup } from './vault-reference.js';

/** Options of `parseConfig`. */
export interface ParseConfigOptions {
  /** The file the value came from: named in errors, sets `source`, anchors relative paths. */
  file?: string;
  /** The environment `${VAR}` reads. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Default `process.cwd()`. */
  cwd?: string;
  /** Default `os.homedir()`. */
  homeDir?: string;
  /** Skips detection. */
  format?: ConfigFormat;
  /** Receives warnings (ignored keys, unsupported placeholders). Default `process.emitWarning`. */
  onWarning?: (message: string) => void;
  /** Resolves `${vault:<entry>/<NAME>}`. Default: the secret vault of `env`'s state folder, read when first referred to. */
  vault?: VaultLookup;
}

const readers: Record<ConfigFormat, (value: unknown, context: ConfigReadContext) => McpToolsConfig> = {
  mcptools: readMcpToolsJson,
  vscode: readVsCodeJson,
  codex: readCodexToml,
  'claude-desktop': (value, context) => readMcpServersJson(value, context, 'claude-desktop'),
  'claude-code': (value, context) => readMcpServersJson(value, context, 'claude-code'),
  cursor: (value, context) => readMcpServersJson(value, context, 'cursor'),
  windsurf: (value, context) => readMcpServersJson(value, context, 'windsurf'),
};

/**
 * `parseConfig` with the validator to use: the zod-free quick one alone lets `loadConfig` read a
 * valid file without loading zod (see `quickConfigValidator`).
 */
export function readConfigValue(
  value: unknown,
  options: ParseConfigOptions,
  validator: ConfigValidator,
): McpToolsConfig {
  const cwd = options.cwd ?? process.cwd();
  const path = options.file === undefined ? undefined : resolve(cwd, options.file);
  const context = createContext(path, cwd, options, validator);
  // An already-normalized config (say, loadConfig's result) may be passed back in.
  const { source, format: previousFormat, input } = splitNormalizedFields(value, path);
  const format = options.format ?? detectConfigFormat(input, path);
  if (format === undefined) {
    throw configError(
      { file: context.file },
      'unrecognized format: expected "servers" (mcptools.json, VS Code), "mcpServers" (Claude, Cursor, Windsurf) or [mcp_servers] (Codex)',
    );
  }
  const config = readers[format](input, context);
  if (context.unset.length > 0) throw unsetVariablesError(context.unset);
  config.format = previousFormat ?? format;
  const configSource = path ?? source;
  if (configSource !== undefined) config.source = configSource;
  return config;
}

/**
 * One `CONFIG_INVALID` error for every unset variable of the server entries: the first in the
 * message as a single one reads (with how to give a default), the others after it; each by file,
 * server, field and variable name, never a value.
 */
function unsetVariablesError(unset: UnsetVariable[]): McpToolsError {
  const [first, ...others] = unset as [UnsetVariable, ...UnsetVariable[]];
  const also = others.map(
    ({ location, variable }) => `${describeConfigLocation(location)}: ${JSON.stringify(variable)}`,
  );
  return configError(
    first.location,
    `environment variable ${JSON.stringify(first.variable)} is not set (write \${${first.variable}:-default} to give a default)${also.length > 0 ? `; also unset: ${also.join('; ')}` : ''}`,
    {
      issues: unset.map(({ location, variable }) => ({
        path: location.path ?? [],
        message: `environment variable ${JSON.stringify(variable)} is not set`,
      })),
      data: { variable: first.variable, variables: unset.map((entry) => entry.variable) },
    },
  );
}

/** How a configuration warning reaches the user when no `onWarning` is given. */
export function emitConfigWarning(message: string): void {
  process.emitWarning(message, { code: 'MCPTOOLS_CONFIG' });
}

function splitNormalizedFields(
  value: unknown,
  path: string | undefined,
): { source?: string; format?: ConfigFormat; input: unknown } {
  if (path !== undefined || !isPlainObject(value) || !('servers' in value)) return { input: value };
  const { source, format, ...input } = value;
  return {
    source: typeof source === 'string' ? source : undefined,
    format: typeof format === 'string' && format in readers ? (format as ConfigFormat) : undefined,
    input: source === undefined && format === undefined ? value : input,
  };
}

function createContext(
  path: string | undefined,
  cwd: string,
  options: ParseConfigOptions,
  validator: ConfigValidator,
): ConfigReadContext {
  const baseDir = path === undefined ? undefined : dirname(path);
  // `.vscode/mcp.json` and `.cursor/mcp.json` live one level below the project they serve.
  const workspaceFolder =
    baseDir !== undefined && (basename(baseDir) === '.vscode' || basename(baseDir) === '.cursor')
      ? dirname(baseDir)
      : cwd;
  return {
    file: path === undefined ? 'config' : displayConfigPath(path, cwd),
    baseDir,
    workspaceFolder,
    homeDir: options.homeDir ?? homedir(),
    env: options.env ?? process.env,
    warn: options.onWarning ?? emitConfigWarning,
    validator,
    unset: [],
    vault: options.vault ?? defaultVaultLookup(options.env ?? process.env),
  };
}

/** The secret vault of `env`, opened when the first reference is read (most files hold none). */
function defaultVaultLookup(env: Readonly<Record<string, string | undefined>>): VaultLookup {
  let vault: SecretVault | undefined;
  return (entry, name) => {
    vault ??= SecretVault.fromEnv(env);
    return vault.get(entry, name);
  };
}
