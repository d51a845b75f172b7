import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ListRootsResult } from '@modelcontextprotocol/client';
import { entryLaunch, withArgumentMounts } from '../boxes/argument-mounts.js';
import { isWithin, protectedPaths } from '../boxes/protected-paths.js';
import { sandboxGrants } from '../config/sandbox-settings.js';
import type { ConnectionConfig } from './in-process-server.js';
import type { RootsHandler, ServerRequestOptions } from './server-requests.js';

type Root = ListRootsResult['roots'][number];

/**
 * The folders and files a boxed server sees at their host path: its `read` and `write` grants,
 * what its `args` and `env` mount (bubblewrap boxes; a container's command runs in its image), and its
 * `cwd`. `undefined` when `config` is not boxed.
 */
export function boxedPaths(server: string, config: ConnectionConfig): string[] | undefined {
  if (config.type !== 'stdio') return undefined;
  const grants = sandboxGrants(config.sandbox);
  if (grants === undefined) return undefined;
  let shown = grants;
  if (grants.image === undefined) {
    try {
      shown = withArgumentMounts(server, entryLaunch(config), grants, protectedPaths());
    } catch {
      // A refused argument: the server does not start; its roots are the grants' alone.
    }
  }
  return [...(shown.read ?? []), ...(shown.write ?? []), ...(config.cwd === undefined ? [] : [config.cwd])];
}

/**
 * The roots of `roots` a box with `mounts` can see: a root at or inside a mount is kept; a root
 * that holds mounts is replaced by those mounts (the part of it the box sees); every other root,
 * and every root that is not a `file://` URL, is removed, so a boxed server never learns a path
 * outside its box.
 */
export function filterRoots(roots: readonly Root[], mounts: readonly string[]): Root[] {
  const kept: Root[] = [];
  const seen = new Set<string>();
  const add = (root: Root) => {
    if (seen.has(root.uri)) return;
    seen.add(root.uri);
    kept.push(root);
  };
  for (const root of roots) {
    let path: string;
    try {
      path = fileURLToPath(root.uri);
    } catch {
      continue;
    }
    if (mounts.some((mount) => isWithin(path, mount))) {
      add(root);
      continue;
    }
    for (const mount of mounts)
      if (isWithin(mount, path))
        add({ uri: pathToFileURL(mount).href, ...(root.name === undefined ? {} : { name: root.name }) });
  }
  return kept;
}

/**
 * `requests` for the client of a boxed server: its roots, listed or asked of the gateway's
 * caller, filtered to what the box shows ({@link filterRoots}). `requests` itself when `config`
 * is not boxed or no roots are offered.
 */
export function boxedRootsRequests(
  server: string,
  config: ConnectionConfig,
  requests: ServerRequestOptions,
): ServerRequestOptions {
  if (requests.onRootsRequest === undefined && requests.roots === undefined) return requests;
  // The mounts of this start (a client is made per start): a folder named in `args` that
  // appears later is mounted, and shown, at the next start.
  const mounts = boxedPaths(server, config);
  if (mounts === undefined) return requests;
  const { onRootsRequest, roots } = requests;
  const filtered: RootsHandler =
    onRootsRequest !== undefined
      ? async (context) => {
          const answer = await onRootsRequest(context);
          return { ...answer, roots: filterRoots(answer.roots, mounts) };
        }
      : async () => ({ roots: filterRoots(roots ?? [], mounts) });
  return { ...requests, onRootsRequest: filtered };
}
