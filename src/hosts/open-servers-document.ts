import { jsoncServersDocument } from './jsonc-servers-document.js';
import type { ServersDocument } from './servers-document.js';
import { tomlServersDocument } from './toml-servers-document.js';

/** Which file and where its server map sits. */
export interface ServersFile {
  path: string;
  format: 'json' | 'toml';
  serversPath: readonly string[];
}

/** Opens a file's text (`undefined`: a file that does not exist yet) for editing its server map. */
export function openServersDocument(file: ServersFile, bytes: Buffer | undefined): ServersDocument {
  const text = bytes === undefined ? undefined : bytes.toString('utf8');
  if (file.format === 'toml') return tomlServersDocument(text, file.serversPath, file.path);
  // OpenClaw's file is JSON5; only its JSON-compatible form can be edited while keeping it.
  const hint = file.path.endsWith('openclaw.json')
    ? ' (mcptools edits the JSON form of this JSON5 file only: use `openclaw mcp set` instead)'
    : '';
  return jsoncServersDocument(text, file.serversPath, file.path, hint);
}
