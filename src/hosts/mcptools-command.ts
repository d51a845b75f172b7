import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The absolute command of the running CLI: this Node binary and the CLI's entry file (the
 * package's `bin` with links resolved). A host that starts servers with a short `PATH` (Claude
 * Desktop on macOS) finds both, and the entry keeps working across `npm install -g` upgrades of
 * the same install.
 */
export function mcptoolsCommand(argv: readonly string[] = process.argv): { command: string; args: string[] } {
  const entry = argv[1];
  if (entry === undefined) return { command: process.execPath, args: [] };
  let path = resolve(entry);
  try {
    path = realpathSync(path);
  } catch {}
  return { command: process.execPath, args: [path] };
}
