import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { ServerConfig } from '../../config/config-types.js';
import { sandboxGrants } from '../../config/sandbox-settings.js';
import type { ServerStatus } from '../../mcp/hub-types.js';
import { findOnPath } from '../../paths/find-on-path.js';
import { suggestBoxGrant } from './suggest-box-grant.js';

/** What `doctor` found about one server's configuration before starting it. */
export interface ServerCheck {
  /** Whether a stdio server's command resolves (absent for HTTP servers). */
  commandFound?: boolean;
  /** Arguments that look like files and do not exist. */
  missingPaths: string[];
  /** The npm package an `npx` command runs, when there is one. */
  npxPackage?: string;
}

const FILE_LIKE = /^(?:\.{0,2}\/|[A-Za-z]:\\)|\.(?:[cm]?js|ts|py|rb|sh|jar|exe)$/;

/** Checks a server's configuration without starting it: its command on PATH, its file arguments. */
export function checkServerConfig(server: ServerConfig): ServerCheck {
  if (server.type !== 'stdio') return { missingPaths: [] };
  const cwd = server.cwd ?? process.cwd();
  const args = server.args ?? [];
  const isNpx = /(?:^|[/\\])npx(?:\.cmd)?$/.test(server.command);
  const npxPackage = isNpx ? args.find((arg) => !arg.startsWith('-')) : undefined;
  const missingPaths = args.filter(
    (arg) =>
      !arg.startsWith('-') &&
      arg !== npxPackage &&
      FILE_LIKE.test(arg) &&
      !existsSync(isAbsolute(arg) ? arg : resolve(cwd, arg)),
  );
  return {
    commandFound: findOnPath(server.command, { cwd }) !== undefined,
    missingPaths,
    ...(npxPackage ? { npxPackage } : {}),
  };
}

/**
 * A suggested fix for a server that did not connect, from its configuration check and the
 * error it ended with: missing command, missing `npx` package, wrong path, 401, port
 * refused, timeout. `undefined` when the server is fine.
 */
export function suggestFix(
  server: ServerConfig,
  check: ServerCheck,
  status: ServerStatus | undefined,
): string | undefined {
  if (server.enabled === false || status?.state === 'connected') return undefined;
  const message = status?.lastError?.message ?? '';
  if (server.type === 'stdio') {
    const grants = sandboxGrants(server.sandbox);
    // An image's command runs inside the image: whether the host has it says nothing.
    if (grants?.image !== undefined) {
      if (/but no container engine is available/.test(message))
        return 'start the Docker daemon or install Podman, or remove "sandbox.image" to box it with bubblewrap (docs/sandbox.md)';
      return `the container may lack what it needs: check that "${server.command}" exists in the image "${grants.image}", and the folders it reads are in "sandbox.read" (docs/sandbox.md)`;
    }
    if (check.commandFound === false)
      return `"${server.command}" is not on PATH: install it, or put its absolute path in "command"`;
    if (/bubblewrap \("bwrap"\) was not found/.test(message))
      return 'install bubblewrap (apt-get install bubblewrap), or set "sandbox": false on this server';
    if (/socat \(the relay from the box to the egress proxy\) was not found/.test(message))
      return 'install socat (apt-get install socat), or change "sandbox.network" on this server';
    if (grants !== undefined) {
      const boxFix = suggestBoxGrant(server, message);
      if (boxFix !== undefined) return boxFix;
      // A limit the box hit is named in the server's error (box-limit-hits.ts).
      const limit = /hit its box's (?:memory|process) limit \((maxMemoryBytes|maxProcesses) /.exec(
        message,
      )?.[1];
      if (limit !== undefined)
        return `the box stopped it at its limit: raise "sandbox.${limit}" (docs/sandbox.md)`;
      if (/EMFILE/.test(message) && grants.maxOpenFiles !== undefined)
        return 'the box ran out of open files: raise "sandbox.maxOpenFiles" (at least 256 for a Node server; docs/sandbox.md)';
      if (/ENOTFOUND|EAI_AGAIN|ENETUNREACH|ECONNREFUSED|fetch failed/.test(message))
        return 'the box has no network: add the hosts it needs to "sandbox.network": { "allow": ["host:443"] }, or "network": "all" (docs/sandbox.md)';
      return `the box may hide what it needs: add the folders of "command" and of the files in "args" to "sandbox.read" (or "write"), or "network": true for npx and uvx (docs/sandbox.md)`;
    }
    if (check.missingPaths.length > 0)
      return `file not found: ${check.missingPaths.join(', ')}: fix the path in "args" (relative to ${server.cwd ?? 'the current directory'})`;
    if (
      check.npxPackage &&
      /E404|404 Not Found|not in this registry|could not determine executable/i.test(message)
    )
      return `npx could not find the package "${check.npxPackage}": check its name and version`;
  } else {
    if (status?.state === 'auth_required') {
      const command = /`(mcptools auth [^`]+)`/.exec(message)?.[1] ?? 'mcptools auth SERVER';
      return `the server answered 401 and wants an OAuth sign-in: run \`${command}\` (or set a static "Authorization" header)`;
    }
    if (/\b401\b|unauthori[sz]ed/i.test(message))
      return (
        'the server answered 401: it needs credentials; set "headers": { "Authorization": "Bearer $' +
        '{TOKEN}" } (or "auth") on this server'
      );
    if (/\b403\b|forbidden/i.test(message))
      return 'the server answered 403: the credentials are not allowed; check the token and its scopes';
    const refused = /ECONNREFUSED\s*([^\s;,)]*)/.exec(message);
    if (refused)
      return `nothing listens at ${refused[1] || server.url}: start the server, or fix the port in "url"`;
    if (/ENOTFOUND|EAI_AGAIN/.test(message)) return 'the host name does not resolve: check the host in "url"';
    // fetch reports a refused or unreachable port as a bare "fetch failed".
    if (/fetch failed|ECONNRESET|EHOSTUNREACH|socket hang up/i.test(message))
      return `nothing answers at ${hostOf(server.url)}: start the server, or fix the host and port in "url"`;
    if (/\b404\b/.test(message)) return 'the URL answered 404: check its path (often /mcp or /sse)';
  }
  if (status?.lastError?.code === 'TIMEOUT')
    return 'no answer within the connect timeout: check that it starts by hand, or raise "connectTimeoutMs"';
  return server.type === 'stdio'
    ? `run it by hand to see why it stops: ${[server.command, ...(server.args ?? [])].join(' ')}`
    : 'check the URL with curl, and the server’s logs';
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
