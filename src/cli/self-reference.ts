import { realpathSync, statSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { basename, resolve } from 'node:path';
import { parse as parseShell } from 'shell-quote';
import { configSearchPaths } from '../config/config-search-paths.js';
import type { ServerConfig, StdioServerConfig } from '../config/config-types.js';
import { isLoopbackHost } from '../gateway/http/loopback.js';

/** Who "mcptools itself" is, for {@link selfReference}. */
export interface SelfIdentity {
  /** The configuration file this process serves (any path to it), or `undefined` for the built-in default. */
  configFile: string | undefined;
  /** Where a stdio server without `cwd` starts: this process's working directory. */
  cwd: string;
  /** Where this gateway listens over HTTP (none over stdio, or for commands that do not serve). */
  listen?: readonly { host: string; port: number }[];
  /** Paths of this mcptools' CLI entry (`dist/cli/main.cjs`), besides the ones recognised by name. */
  entryPoints?: readonly string[];
}

/** The reason every skipped self entry's status starts with. */
export const SELF_SKIP_REASON = 'skipped: this is mcptools itself';

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish']);
const NODES = new Set(['node', 'nodejs', 'bun', 'deno', 'tsx']);
const RUNNERS = new Set(['npx', 'bunx', 'pnpx']);
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn']);
/** Options of node (and npx) that take a value: the token after them is not the script. */
const VALUE_OPTIONS = new Set(['-r', '--require', '--import', '--loader', '-p', '--package', '--cache']);
/** mcptools' global options that take a value (src/cli/main.ts). */
const CLI_VALUE_OPTIONS = new Set(['-c', '--config', '--connect-timeout']);

/**
 * Why `server` must not be connected because it is this mcptools (a reason starting
 * {@link SELF_SKIP_REASON}), or `undefined`. Recognised, before anything is started:
 *
 * - a stdio entry that runs `mcptools serve` with the same configuration as `self` — through
 *   any path to the CLI (`dist/cli/main.cjs`, a `node_modules/.bin/mcptools` link), `node …`,
 *   `npx [-y] mcptools`, `npm exec`, `env`/`exec` prefixes, or a shell wrapper
 *   (`sh -c '… mcptools serve …'`). A `serve` of another configuration is another gateway
 *   (A fronts B on purpose): allowed, and the gateway chain (src/mcp/gateway-chain.ts)
 *   refuses it if it leads back here;
 * - an HTTP or SSE entry whose URL is one of this gateway's own listen addresses (any path:
 *   `/mcp`, `/mcp/<profile>`, `/sse`; `127.0.0.1`, `localhost` and `::1` taken as one);
 * - a stdio bridge to such a URL (`npx -y mcp-remote http://127.0.0.1:PORT/mcp`, or any stdio
 *   entry with the URL among its arguments).
 */
export function selfReference(server: ServerConfig, self: SelfIdentity): string | undefined {
  if (server.type !== 'stdio') {
    return ownUrl(server.url, self) ? `${SELF_SKIP_REASON} (this gateway's own URL)` : undefined;
  }
  const cwd = server.cwd === undefined ? self.cwd : resolve(self.cwd, server.cwd);
  for (const argv of commandLines(server)) {
    const bridged = argv.find((token) => /^https?:\/\//i.test(token) && ownUrl(token, self));
    if (bridged !== undefined) return `${SELF_SKIP_REASON} (${bridgeName(argv)} to this gateway's own URL)`;
    const cli = mcptoolsArguments(argv, cwd, self);
    if (cli !== undefined && servesSameConfig(cli, cwd, self))
      return `${SELF_SKIP_REASON} (\`serve\` of the same configuration)`;
  }
  return undefined;
}

/** The command lines a stdio entry runs: its own, and each command of a `sh -c` script. */
function commandLines(server: StdioServerConfig): string[][] {
  const argv = [server.command, ...(server.args ?? [])];
  const lines = [argv];
  if (SHELLS.has(programName(server.command))) {
    const flag = (server.args ?? []).findIndex((arg) => /^-[a-z]*c[a-z]*$/i.test(arg));
    const script = flag >= 0 ? server.args?.[flag + 1] : undefined;
    if (script !== undefined) {
      // Variables stay as written (`$HOME`): they are not expanded here.
      let current: string[] = [];
      for (const token of parseShell(script, (name) => `$${name}`)) {
        if (typeof token === 'string') current.push(token);
        else if ('op' in token && token.op !== 'glob') {
          if (current.length > 0) lines.push(current);
          current = [];
        } else if ('pattern' in token) current.push(String(token.pattern));
      }
      if (current.length > 0) lines.push(current);
    }
  }
  return lines;
}

/** `node`, `npx`, … of a command path (`/usr/bin/node.exe` → `node`). */
function programName(command: string): string {
  return basename(command)
    .toLowerCase()
    .replace(/\.(exe|cmd|bat|ps1)$/, '');
}

/** The arguments given to mcptools when `argv` runs it, else `undefined`. */
function mcptoolsArguments(argv: string[], cwd: string, self: SelfIdentity): string[] | undefined {
  let index = 0;
  const skipOptions = () => {
    while (index < argv.length && argv[index]!.startsWith('-') && argv[index] !== '--') {
      index += VALUE_OPTIONS.has(argv[index]!) ? 2 : 1;
    }
    if (argv[index] === '--') index++;
  };
  while (index < argv.length) {
    const token = argv[index]!;
    const name = programName(token);
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(token) || name === 'exec' || name === 'env' || name === 'nohup') {
      index++;
      if (name === 'env') skipOptions();
      continue;
    }
    if (NODES.has(name)) {
      index++;
      skipOptions();
      const script = argv[index];
      return script !== undefined && isMcpToolsPath(script, cwd, self) ? argv.slice(index + 1) : undefined;
    }
    if (RUNNERS.has(name) || PACKAGE_MANAGERS.has(name)) {
      index++;
      if (PACKAGE_MANAGERS.has(name)) {
        if (!['exec', 'x', 'dlx'].includes(argv[index] ?? '')) return undefined;
        index++;
      }
      // `npx -p mcptools mcptools serve` names the package and the command.
      const packageFlag = argv.findIndex((arg) => arg === '-p' || arg === '--package');
      skipOptions();
      const packageName = packageFlag >= 0 ? argv[packageFlag + 1] : argv[index];
      if (packageName === undefined || !isMcpToolsPackage(packageName)) return undefined;
      return argv.slice(index + 1);
    }
    return isMcpToolsPath(token, cwd, self) ? argv.slice(index + 1) : undefined;
  }
  return undefined;
}

/** `mcptools`, `mcptools@1.2.3`, `mcptools@latest`. */
function isMcpToolsPackage(spec: string): boolean {
  return /^mcptools(@[^/]*)?$/.test(spec);
}

/** A path (or a name on PATH) that runs this mcptools' CLI. */
function isMcpToolsPath(path: string, cwd: string, self: SelfIdentity): boolean {
  if (programName(path) === 'mcptools') return true;
  const full = resolve(cwd, path);
  if (/[\\/]mcptools[\\/]dist[\\/]cli[\\/]main\.c?js$/.test(full)) return true;
  const real = realPath(full);
  if (real === undefined) return false;
  return (self.entryPoints ?? []).some((entry) => realPath(entry) === real);
}

/** Whether mcptools run with `cli` would `serve` the configuration `self` serves. */
function servesSameConfig(cli: string[], cwd: string, self: SelfIdentity): boolean {
  let command: string | undefined;
  let config: string | undefined;
  for (let index = 0; index < cli.length; index++) {
    const token = cli[index]!;
    const [option, inline] = token.startsWith('--') ? token.split(/=(.*)/s, 2) : [token, undefined];
    if (option === '-c' || option === '--config') {
      config = inline ?? cli[++index];
      continue;
    }
    if (token.startsWith('-')) {
      if (CLI_VALUE_OPTIONS.has(option!) && inline === undefined) index++;
      continue;
    }
    command ??= token;
  }
  if (command !== 'serve') return false;
  const theirs = config === undefined ? discoverForServe(cwd) : realPath(resolve(cwd, config));
  const ours = self.configFile === undefined ? undefined : (realPath(self.configFile) ?? self.configFile);
  return theirs === ours;
}

/**
 * The configuration file `serve` without `--config` would load in `cwd` (its real path): the
 * first of the project's own files, never another host's user-level file
 * (docs/gateway-recursion.md); `undefined` for the built-in default.
 */
export function discoverForServe(cwd: string): string | undefined {
  for (const path of configSearchPaths({ cwd, scope: 'project' })) {
    if (statSync(path, { throwIfNoEntry: false })?.isFile()) return realPath(path);
  }
  return undefined;
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** What a stdio bridge is called in a skip reason. */
function bridgeName(argv: string[]): string {
  const known = argv.find((token) => /(^|[\\/])(mcp-remote|mcp-proxy|supergateway)(@|$)/.test(token));
  return known === undefined
    ? 'a stdio bridge'
    : (known.split(/[\\/]/).pop()!.split('@')[0] ?? 'a stdio bridge');
}

/** Whether `value` is a URL of this gateway: its port, on a host name that reaches it. */
function ownUrl(value: string, self: SelfIdentity): boolean {
  if (!self.listen?.length) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return self.listen.some((address) => {
    if (address.port !== port) return false;
    const bound = address.host.replace(/^\[|\]$/g, '').toLowerCase();
    if (bound === host) return true;
    // 127.0.0.1, localhost and ::1 name one machine: a client may write any of them.
    if (isLoopbackHost(bound) && reachesLoopback(host)) return true;
    if (bound === '0.0.0.0' || bound === '::') return reachesLoopback(host) || localAddresses().has(host);
    return false;
  });
}

/**
 * A destination that reaches this machine's loopback: `localhost`, `127.x`, `::1`, and the
 * aliases a connect also takes there (`0.0.0.0`, `::`, IPv4-mapped `::ffff:127.x`, which the
 * URL parser writes `::ffff:7f00:1`).
 */
function reachesLoopback(host: string): boolean {
  if (isLoopbackHost(host) || host === '0.0.0.0' || host === '::') return true;
  const mapped = /^::ffff:(.+)$/.exec(host)?.[1];
  if (mapped === undefined) return false;
  return mapped.startsWith('127.') || /^7f[0-9a-f]{2}:/.test(mapped);
}

/** This machine's interface addresses (for a gateway bound to every interface). */
function localAddresses(): Set<string> {
  const addresses = new Set<string>();
  for (const entries of Object.values(networkInterfaces()))
    for (const entry of entries ?? []) addresses.add(entry.address.toLowerCase());
  return addresses;
}
