import { readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseJsonc } from '../config/parse-jsonc.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { jsoncServersDocument } from '../hosts/jsonc-servers-document.js';
import { isPlainObject } from '../json/is-plain-object.js';
import { writeFileAtomically } from '../paths/write-file-atomically.js';

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The parsed `mcptools.json` (JSON or JSONC) a command reads (an absent file is an empty one).
 * A file whose `servers` is not an object is refused, naming it.
 */
export function readConfigJson(file: string): Record<string, unknown> & { servers: Record<string, unknown> } {
  const text = readText(file);
  if (text === undefined || text.trim() === '') return { servers: {} };
  const parsed = parseJsonc(text, file);
  if (!isPlainObject(parsed) || (parsed.servers !== undefined && !isPlainObject(parsed.servers)))
    throw new McpToolsError(
      'CONFIG_INVALID',
      `${file} is not an mcptools.json file (its "servers" must be an object; host files are changed with mcptools connect)`,
    );
  return { ...parsed, servers: { ...(parsed.servers as Record<string, unknown> | undefined) } };
}

/**
 * Sets (or, with `undefined`, removes) the server entry `name` of `file`, changing only that
 * entry's text: comments, order and formatting of the rest stay (add, remove, update and an
 * agent's `add_server` all edit a file a person also edits). Written through a temporary file
 * renamed over it, keeping the file's permissions (one holding tokens may be owner-only).
 * Resolves with whether the entry existed.
 */
export async function setConfigEntry(
  file: string,
  name: string,
  entry: Record<string, unknown> | undefined,
): Promise<boolean> {
  const text = readText(file);
  readConfigJson(file);
  const document = jsoncServersDocument(text, ['servers'], file);
  const existed = Object.hasOwn(document.servers(), name);
  if (entry === undefined) document.remove(name);
  else document.set(name, entry);
  let mode = 0o644;
  if (text !== undefined) mode = statSync(file).mode & 0o777;
  else await mkdir(dirname(file), { recursive: true });
  await writeFileAtomically(file, document.text(), mode);
  return existed;
}
