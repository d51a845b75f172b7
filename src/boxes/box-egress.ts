/**
 * Where a box with a network allowlist finds its way out, on the host: a private folder holding
 * the egress proxy's unix socket and the Node preload, and undici's package folder.
 */
export interface BoxEgress {
  /** The folder with {@link EGRESS_SOCKET} and {@link EGRESS_PRELOAD} (mode 0700, the gateway's own). */
  dir: string;
  /** undici's package folder, bound read-only for the preload. */
  undici: string;
}

/** The proxy's unix socket, in {@link BoxEgress.dir}. */
export const EGRESS_SOCKET = 'proxy.sock';
/** The Node preload, in {@link BoxEgress.dir}. */
export const EGRESS_PRELOAD = 'preload.cjs';
/** Where {@link BoxEgress.dir} is in the box. */
const EGRESS_DIR_IN_BOX = '/run/mcptools-egress';
/** Where undici's package is in the box. */
const UNDICI_IN_BOX = '/run/mcptools-undici';
/** The relay's port on the box's own loopback (a network namespace of its own: nothing else is there). */
const RELAY_PORT = 3128;

/**
 * The preload every Node process of the box loads (`NODE_OPTIONS=--require …`): Node 20's `fetch`
 * ignores `HTTP_PROXY`, so the preload makes undici's `EnvHttpProxyAgent` (which reads it) the
 * global dispatcher that `fetch` uses.
 */
export const EGRESS_PRELOAD_SOURCE = `'use strict';
// Written by mcptools: fetch() in this box goes through the egress proxy named by HTTP_PROXY.
try {
  const undici = require(${JSON.stringify(UNDICI_IN_BOX)});
  undici.setGlobalDispatcher(new undici.EnvHttpProxyAgent());
} catch (error) {
  process.stderr.write('mcptools egress preload: ' + String(error) + '\\n');
}
`;

/**
 * The shell that starts the relay in the box and then the server (`exec "$@"`): socat listens on
 * the box's loopback and passes each connection to the proxy's socket; the server starts once
 * the relay answers, so a request made at start is not refused for being early.
 */
const RELAY_SCRIPT = [
  `socat TCP-LISTEN:${RELAY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${EGRESS_DIR_IN_BOX}/${EGRESS_SOCKET} &`,
  'i=0',
  `until socat -u OPEN:/dev/null TCP:127.0.0.1:${RELAY_PORT} 2>/dev/null; do i=$((i+1)); [ "$i" -ge 500 ] && break; sleep 0.01; done`,
  'exec "$@"',
].join('\n');

/** The bubblewrap arguments that bind the proxy's folder and undici into the box, read-only. */
export function egressBinds(egress: BoxEgress): string[] {
  return ['--ro-bind', egress.dir, EGRESS_DIR_IN_BOX, '--ro-bind', egress.undici, UNDICI_IN_BOX];
}

/**
 * The box's proxy variables (upper and lower case: curl reads only `http_proxy`) and
 * `NODE_OPTIONS` with the preload in front of the entry's own.
 */
export function egressEnvironment(nodeOptions: string | undefined): Record<string, string> {
  const proxy = `http://127.0.0.1:${RELAY_PORT}`;
  const preload = `--require ${EGRESS_DIR_IN_BOX}/${EGRESS_PRELOAD}`;
  return {
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
    NODE_OPTIONS: nodeOptions === undefined || nodeOptions === '' ? preload : `${preload} ${nodeOptions}`,
  };
}

/** The command in front of the server's: the relay's shell (`sh -c <script> sh <server…>`). */
export function relayCommand(): string[] {
  return ['/bin/sh', '-c', RELAY_SCRIPT, 'sh'];
}
