import { join } from 'node:path';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import type { ConnectTarget } from './connect-target.js';
import { appSettingsDir, type HostEnvironment, homeOf } from './host-environment.js';
import {
  type ImportRules,
  importEntry,
  rewriteBareReferences,
  rewriteEditorReferences,
  type UrlTransport,
} from './import-entry.js';

/** The hosts `mcptools connect` and `import` know. */
export const HOST_IDS = [
  'claude-code',
  'claude-desktop',
  'cursor',
  'vscode',
  'windsurf',
  'gemini-cli',
  'codex',
  'openclaw',
] as const;

/** One of {@link HOST_IDS}. */
export type HostId = (typeof HOST_IDS)[number];

/** One host: where its user-level file is, its format, where its servers sit and the entries it takes. */
export interface HostDefinition {
  id: HostId;
  /** The host's own name, for messages. */
  name: string;
  /** `json` files are read and edited as JSON with comments; `toml` is Codex's. */
  format: 'json' | 'toml';
  /** Where the server map sits in the file (`["mcpServers"]`, `["mcp", "servers"]`). */
  serversPath: readonly string[];
  /** The user-level file on this platform, honouring the host's own override variables. */
  configFile(host: HostEnvironment): string;
  /** Commands on `PATH` whose presence means the host is installed. */
  binaries: readonly string[];
  /** How the file refers to an environment variable, or `undefined` when it cannot. */
  envReference?: (name: string) => string;
  /** The entry `connect` writes for a target; throws when the host cannot take it safely. */
  entry(target: ConnectTarget): Record<string, unknown>;
  /** Reads one of the host's entries as a `mcptools.json` entry (throws `UnimportableEntry`). */
  importEntry(raw: unknown): Record<string, unknown>;
}

const dollarBrace = (name: string) => `\${${name}}`;
const editorEnv = (name: string) => `\${env:${name}}`;

/** The `Authorization` header that names the token's variable, or nothing without one. */
function bearerHeader(
  target: Extract<ConnectTarget, { kind: 'http' }>,
  reference: (name: string) => string,
): { headers?: Record<string, string> } {
  return target.tokenEnv === undefined
    ? {}
    : { headers: { Authorization: `Bearer ${reference(target.tokenEnv)}` } };
}

const plainStdio = (target: Extract<ConnectTarget, { kind: 'stdio' }>) => ({
  command: target.command,
  args: target.args,
});

const typeOrHttp =
  (http: UrlTransport) =>
  (entry: Record<string, unknown>): UrlTransport =>
    entry.type === 'sse' ? 'sse' : entry.type === 'http' || entry.type === 'streamable-http' ? http : 'http';

function define(
  definition: Omit<HostDefinition, 'importEntry' | 'entry'> & {
    stdio(target: Extract<ConnectTarget, { kind: 'stdio' }>): Record<string, unknown>;
    http(target: Extract<ConnectTarget, { kind: 'http' }>): Record<string, unknown>;
    rules: ImportRules;
  },
): HostDefinition {
  const { stdio, http, rules, ...rest } = definition;
  return {
    ...rest,
    entry: (target) => (target.kind === 'stdio' ? stdio(target) : http(target)),
    importEntry: (raw) => importEntry(raw, rules),
  };
}

const definitions: HostDefinition[] = [
  define({
    id: 'claude-code',
    name: 'Claude Code',
    format: 'json',
    serversPath: ['mcpServers'],
    // The user scope of `claude mcp add -s user`; CLAUDE_CONFIG_DIR moves it.
    configFile: (host) => join(host.env.CLAUDE_CONFIG_DIR?.trim() || homeOf(host), '.claude.json'),
    binaries: ['claude'],
    envReference: dollarBrace,
    // What `claude mcp add` itself writes.
    stdio: (target) => ({ type: 'stdio', ...plainStdio(target), env: {} }),
    http: (target) => ({ type: 'http', url: target.url, ...bearerHeader(target, dollarBrace) }),
    rules: { urlKeys: ['url'], transport: typeOrHttp('streamable-http') },
  }),
  define({
    id: 'claude-desktop',
    name: 'Claude Desktop',
    format: 'json',
    serversPath: ['mcpServers'],
    configFile: (host) => join(appSettingsDir(host), 'Claude', 'claude_desktop_config.json'),
    binaries: ['claude-desktop'],
    stdio: plainStdio,
    http: (target) => {
      // Its file takes commands only, and interpolates no variable: a token would sit in clear.
      if (target.tokenEnv !== undefined)
        throw new McpToolsError(
          'INVALID_ARGUMENTS',
          'Claude Desktop cannot read a token from an environment variable, so connect will not write one in its file: connect it with --stdio, or serve HTTP without a token on loopback',
        );
      return { command: 'npx', args: ['-y', 'mcp-remote', target.url] };
    },
    rules: { urlKeys: ['url'], transport: typeOrHttp('http') },
  }),
  define({
    id: 'cursor',
    name: 'Cursor',
    format: 'json',
    serversPath: ['mcpServers'],
    configFile: (host) => join(homeOf(host), '.cursor', 'mcp.json'),
    binaries: ['cursor'],
    envReference: editorEnv,
    stdio: plainStdio,
    http: (target) => ({ url: target.url, ...bearerHeader(target, editorEnv) }),
    rules: { urlKeys: ['url'], transport: typeOrHttp('http'), rewriteReferences: rewriteEditorReferences },
  }),
  define({
    id: 'vscode',
    name: 'VS Code',
    format: 'json',
    serversPath: ['servers'],
    configFile: (host) => join(appSettingsDir(host), 'Code', 'User', 'mcp.json'),
    binaries: ['code'],
    envReference: editorEnv,
    stdio: (target) => ({ type: 'stdio', ...plainStdio(target) }),
    http: (target) => ({ type: 'http', url: target.url, ...bearerHeader(target, editorEnv) }),
    rules: { urlKeys: ['url'], transport: typeOrHttp('http'), rewriteReferences: rewriteEditorReferences },
  }),
  define({
    id: 'windsurf',
    name: 'Windsurf',
    format: 'json',
    serversPath: ['mcpServers'],
    configFile: (host) => join(homeOf(host), '.codeium', 'windsurf', 'mcp_config.json'),
    binaries: ['windsurf'],
    envReference: editorEnv,
    stdio: plainStdio,
    // Windsurf's key for a remote server is serverUrl; `url` connects to nothing.
    http: (target) => ({ serverUrl: target.url, ...bearerHeader(target, editorEnv) }),
    rules: {
      urlKeys: ['serverUrl', 'url'],
      transport: typeOrHttp('http'),
      rewriteReferences: rewriteEditorReferences,
    },
  }),
  define({
    id: 'gemini-cli',
    name: 'Gemini CLI',
    format: 'json',
    serversPath: ['mcpServers'],
    configFile: (host) => join(homeOf(host), '.gemini', 'settings.json'),
    binaries: ['gemini'],
    envReference: dollarBrace,
    stdio: plainStdio,
    // httpUrl is Streamable HTTP; `url` would mean the legacy SSE transport.
    http: (target) => ({ httpUrl: target.url, ...bearerHeader(target, dollarBrace) }),
    rules: {
      urlKeys: ['httpUrl', 'url'],
      transport: (_entry, key) => (key === 'httpUrl' ? 'streamable-http' : 'sse'),
      rewriteReferences: rewriteBareReferences,
    },
  }),
  define({
    id: 'codex',
    name: 'Codex',
    format: 'toml',
    serversPath: ['mcp_servers'],
    configFile: (host) => join(host.env.CODEX_HOME?.trim() || join(homeOf(host), '.codex'), 'config.toml'),
    binaries: ['codex'],
    stdio: plainStdio,
    // Codex reads the bearer token from the variable it names; nothing secret in the file.
    http: (target) =>
      target.tokenEnv === undefined
        ? { url: target.url }
        : { url: target.url, bearer_token_env_var: target.tokenEnv },
    rules: {
      urlKeys: ['url'],
      transport: () => 'streamable-http',
      extraHeaders: (entry) => {
        const headers: Record<string, string> = {};
        if (typeof entry.http_headers === 'object' && entry.http_headers !== null)
          for (const [name, value] of Object.entries(entry.http_headers))
            if (typeof value === 'string') headers[name] = value;
        if (typeof entry.env_http_headers === 'object' && entry.env_http_headers !== null)
          for (const [name, variable] of Object.entries(entry.env_http_headers))
            if (typeof variable === 'string') headers[name] = dollarBrace(variable);
        if (typeof entry.bearer_token_env_var === 'string')
          headers.Authorization = `Bearer ${dollarBrace(entry.bearer_token_env_var)}`;
        return headers;
      },
    },
  }),
  define({
    id: 'openclaw',
    name: 'OpenClaw',
    format: 'json',
    serversPath: ['mcp', 'servers'],
    configFile: (host) => {
      const { env } = host;
      if (env.OPENCLAW_CONFIG_PATH?.trim()) return env.OPENCLAW_CONFIG_PATH;
      if (env.OPENCLAW_STATE_DIR?.trim()) return join(env.OPENCLAW_STATE_DIR, 'openclaw.json');
      return join(env.OPENCLAW_HOME?.trim() || homeOf(host), '.openclaw', 'openclaw.json');
    },
    binaries: ['openclaw'],
    envReference: dollarBrace,
    stdio: plainStdio,
    http: (target) => {
      // OpenClaw substitutes only upper-case names ([A-Z_][A-Z0-9_]*); another stays literal.
      if (target.tokenEnv !== undefined && !/^[A-Z_][A-Z0-9_]*$/.test(target.tokenEnv))
        throw new McpToolsError(
          'INVALID_ARGUMENTS',
          `OpenClaw substitutes only upper-case variable names: use a name such as MCPTOOLS_TOKEN, not ${target.tokenEnv}`,
        );
      return { url: target.url, transport: 'streamable-http', ...bearerHeader(target, dollarBrace) };
    },
    rules: {
      urlKeys: ['url'],
      transport: (entry) => (entry.transport === 'streamable-http' ? 'streamable-http' : 'sse'),
    },
  }),
];

/** Every host, in the order `connect --list` shows them. */
export const HOSTS: readonly HostDefinition[] = definitions;

const aliases: Record<string, HostId> = {
  claude: 'claude-code',
  'claude-app': 'claude-desktop',
  code: 'vscode',
  'vs-code': 'vscode',
  gemini: 'gemini-cli',
};

/** The host named `name` (its id or a common alias); an unknown name lists the known ones. */
export function hostDefinition(name: string): HostDefinition {
  const id = aliases[name.toLowerCase()] ?? name.toLowerCase();
  const found = HOSTS.find((host) => host.id === id);
  if (found) return found;
  throw new McpToolsError(
    'INVALID_ARGUMENTS',
    `unknown host ${JSON.stringify(name)}: use one of ${HOST_IDS.join(', ')}`,
  );
}
