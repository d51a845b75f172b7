import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { isPlainObject } from '../json/is-plain-object.js';

/** The parsed `mcptools.json` a command edits (an absent file is an empty one). */
export function readConfigJson(file: string): Record<string, unknown> & { servers: Record<string, unknown> } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { servers: {} };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new McpToolsError(
      'CONFIG_INVALID',
      `${file} is not plain JSON; mcptools add, remove and update edit mcptools.json files (comments are not kept, so they refuse)`,
    );
  }
  if (!isPlainObject(parsed) || (parsed.servers !== undefined && !isPlainObject(parsed.servers)))
    throw new McpToolsError(
      'CONFIG_INVALID',
      `${file} is not an mcptools.json file (its "servers" must be an object; host files are changed with mcptools connect)`,
    );
  return { ...parsed, servers: { ...(parsed.servers as Record<string, unknown> | undefined) } };
}

/** Writes `config` to `file` (two-space JSON) through a temporary file renamed over it. */
export async function writeConfigJson(file: string, config: Record<string, unknown>): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`);
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
