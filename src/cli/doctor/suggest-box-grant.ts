import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { StdioServerConfig } from '../../config/config-types.js';
import { findOnPath } from '../../paths/find-on-path.js';

/** What the box shows read-only anyway: a command there needs no grant. */
const SYSTEM_DIRS = ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib64/'];

/**
 * The exact setting a boxed server that failed likely needs, from the error it ended with (its
 * stderr included), or `undefined` when the error says nothing this can name: a folder its
 * `args` or `env` name that a box never mounts (the state folder, a vault, the configuration, the home
 * as a whole), a path it could not write (`EROFS`: that folder in `sandbox.write`), a module or
 * file it could not find (`ENOENT`, `Cannot find module`: that folder in `sandbox.read`), and a
 * command installed outside the system folders (its folder in `sandbox.read`).
 */
export function suggestBoxGrant(server: StdioServerConfig, message: string): string | undefined {
  const refused =
    /(args\[\d+\]|env\.[A-Za-z_]\w*) "([^"]+)" (?:is|would expose) (.+?), which a box never mounts/.exec(
      message,
    );
  if (refused !== undefined && refused !== null)
    return `${refused[1]} names ${refused[2]}: ${refused[3]}, which a box never mounts, whatever the grants; name a folder inside it that holds only what the server needs (a project folder, not the home), or mark the server "trusted": true if it must run on the host (docs/sandbox.md)`;
  const readOnly = /EROFS[^'"]*['"](\/[^'"]+)['"]/.exec(message)?.[1];
  if (readOnly !== undefined)
    return `the box shows ${readOnly} read-only: add "${dirname(readOnly)}" to "sandbox.write" (docs/sandbox.md)`;
  // Node's ESM loader names the file that imported a package the box does not show.
  const importer = /Cannot find package '[^']+' imported from (\/\S+)/.exec(message)?.[1];
  if (importer !== undefined) {
    const project = folderWithModules(dirname(importer));
    if (project !== undefined)
      return `the box does not show the packages of ${importer}: add "${project}" to "sandbox.read" (docs/sandbox.md)`;
  }
  const missing =
    /Cannot find (?:module|package) ['"]?(\/[^'"\s]+)/.exec(message)?.[1] ??
    /ENOENT[^'"]*['"](\/[^'"]+)['"]/.exec(message)?.[1];
  if (missing !== undefined)
    return `the box does not show ${missing}: add "${dirname(missing)}" to "sandbox.read" (docs/sandbox.md)`;
  const command = isAbsolute(server.command) ? server.command : findOnPath(server.command, {});
  if (command !== undefined && !SYSTEM_DIRS.some((dir) => command.startsWith(dir)))
    return `"${server.command}" is ${command}, outside the folders a box shows: add "${dirname(command)}" to "sandbox.read", or use a system-installed one (docs/sandbox.md)`;
  return undefined;
}

/** The nearest folder at or above `dir` that holds a `node_modules` (a server's project), on the host. */
function folderWithModules(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules'))) return at;
    if (dirname(at) === at) return undefined;
  }
}
