import type { Command } from 'commander';
import open from 'open';
import { FileTokenStore } from '../../auth/file-token-store.js';
import { oauthApplies } from '../../auth/oauth-applies.js';
import type { VaultEntry } from '../../auth/token-store.js';
import type { McpToolsConfig } from '../../config/config-types.js';
import { loadConfig } from '../../config/load-config.js';
import { redactUrl } from '../../config/redact-url.js';
import { McpToolsError } from '../../errors/mcp-tools-error.js';
import { loadMcpServers } from '../../hub/load-mcp-servers.js';
import { ToolRegistry } from '../../pipeline/tool-registry.js';
import { printJson, printLine } from '../print.js';
import { warnOnStderr } from '../warn-on-stderr.js';
import type { GlobalOptions } from './global-options.js';

interface AuthOptions extends GlobalOptions {
  list?: boolean;
  logout?: string;
  browser?: boolean;
  timeout?: number;
}

/** How long `mcptools auth` waits for the person to finish signing in. */
const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/** Runs `mcptools auth [SERVER] [--list] [--logout SERVER]`. */
export async function authAction(
  server: string | undefined,
  _options: unknown,
  command: Command,
): Promise<void> {
  const options = command.optsWithGlobals<AuthOptions>();
  const store = new FileTokenStore();
  if (options.list) return listVault(store, await readConfig(options, true), options.json === true);
  if (options.logout) return logout(store, await readConfig(options, true), options.logout);
  if (!server)
    throw new McpToolsError('INVALID_ARGUMENTS', 'name a server, or use --list or --logout SERVER');
  await authorize(server, await readConfig(options, false), options, store);
}

async function readConfig(options: AuthOptions, optional: boolean): Promise<McpToolsConfig> {
  if (options.config) return loadConfig(options.config, { onWarning: warnOnStderr });
  return loadConfig(undefined, { optional, onWarning: warnOnStderr });
}

async function authorize(name: string, config: McpToolsConfig, options: AuthOptions, store: FileTokenStore) {
  const server = config.servers[name];
  if (server === undefined) {
    const known = Object.keys(config.servers).join(', ') || 'none';
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      `no server "${name}" in the configuration (servers: ${known})`,
    );
  }
  if (!oauthApplies(server)) {
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      `server "${name}" does not use OAuth (a stdio server, or static credentials in its configuration)`,
    );
  }
  const timeoutMs = options.timeout ?? DEFAULT_TIMEOUT_MS;
  let flows = 0;
  const onAuthorizationUrl = async (url: URL) => {
    flows++;
    process.stderr.write(`Open this URL to authorize "${name}":\n\n  ${url.href}\n\n`);
    if (options.browser !== false && hasBrowser()) {
      await open(url.href).catch(() =>
        process.stderr.write('mcptools: could not open a browser; open the URL above\n'),
      );
    }
  };
  const hub = await loadMcpServers({ ...config, servers: { [name]: server } }, new ToolRegistry(), {
    tokenStore: store,
    onAuthorizationUrl,
    connectTimeoutMs: timeoutMs,
    reconnect: { enabled: false },
  });
  try {
    // Already signed in: sign in again (new consent, or the wider scope a server asked for).
    if (flows === 0 && server.auth?.type === 'oauth' && server.auth.grant === 'client_credentials') {
      // The client-credentials grant needs no person: connecting was the whole flow.
    } else if (flows === 0 && hub.status(name)?.state === 'connected') {
      const start = await hub.authorize?.(name, { force: true, onAuthorizationUrl });
      await start?.completion;
      await hub.refresh(name);
    }
    const status = hub.status(name);
    if (status?.state !== 'connected') {
      throw new McpToolsError(
        'PERMISSION_DENIED',
        `server "${name}" is ${status?.state}: ${status?.lastError?.message ?? 'not connected'}`,
      );
    }
    const entry = await store.get(server.url);
    printLine(`Authorized "${name}"${describeGrant(entry)}; ${status.toolCount} tool(s).`);
  } finally {
    await hub.close();
  }
}

function hasBrowser(): boolean {
  if (process.platform !== 'linux') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

function describeGrant(entry: VaultEntry | undefined): string {
  if (!entry?.tokens) return '';
  const scope = entry.tokens.scope ? ` (scope: ${entry.tokens.scope})` : '';
  const expiry = entry.expiresAt ? `, token expires ${new Date(entry.expiresAt).toISOString()}` : '';
  return `${scope}${expiry}`;
}

async function listVault(store: FileTokenStore, config: McpToolsConfig, json: boolean): Promise<void> {
  const names = (url: string) =>
    Object.entries(config.servers)
      .filter(([, server]) => server.type !== 'stdio' && server.url === url)
      .map(([name]) => name);
  // Per-user entries (a gateway caller's own sign-in, keyed `principal:…`) are theirs: not listed.
  const shared = (await store.list()).filter((entry) => !entry.serverUrl.startsWith('principal:'));
  const rows = shared.map((entry) => ({
    servers: names(entry.serverUrl),
    url: redactUrl(entry.serverUrl),
    authorized: entry.tokens !== undefined,
    scope: entry.tokens?.scope ?? null,
    expiresAt: entry.expiresAt === undefined ? null : new Date(entry.expiresAt).toISOString(),
    expired: entry.expiresAt !== undefined && entry.expiresAt <= Date.now(),
    refreshable: entry.tokens?.refresh_token !== undefined,
  }));
  if (json) {
    printJson({ vault: store.path, servers: rows });
    return;
  }
  if (rows.length === 0) {
    printLine(`No server is authorized (vault: ${store.path}).`);
    return;
  }
  for (const row of rows) {
    const who = row.servers.length > 0 ? row.servers.join(', ') : '(not in this configuration)';
    const state = !row.authorized ? 'not authorized' : row.expired ? 'expired' : 'authorized';
    const expiry = row.expiresAt ? `, expires ${row.expiresAt}` : '';
    const refresh = row.refreshable ? ', refreshable' : '';
    printLine(`${who}  ${row.url}  ${state}${row.scope ? `, scope: ${row.scope}` : ''}${expiry}${refresh}`);
  }
}

async function logout(store: FileTokenStore, config: McpToolsConfig, target: string): Promise<void> {
  const server = config.servers[target];
  const url = server && server.type !== 'stdio' ? server.url : target;
  let found = false;
  await store.update(url, (entry) => {
    found = entry !== undefined;
    return undefined;
  });
  if (!found) throw new McpToolsError('INVALID_ARGUMENTS', `nothing stored for "${target}"`);
  printLine(`Forgot the tokens of "${target}".`);
}
