import { isDeepStrictEqual } from 'node:util';
import { parse, patch, stringify } from '@decimalturn/toml-patch';
import { configError } from '../config/config-error.js';
import { isPlainObject } from '../json/is-plain-object.js';
import type { ServersDocument } from './servers-document.js';

/**
 * A TOML file (Codex's `config.toml`) whose server map is the table at `serversPath`, edited
 * through `@decimalturn/toml-patch`, which keeps comments, order and formatting. A new entry is
 * appended as a `[mcp_servers.<name>]` table of its own, the way Codex's own `codex mcp add` and
 * its documentation write it; a replaced or removed one is patched in place.
 */
export function tomlServersDocument(
  text: string | undefined,
  serversPath: readonly string[],
  file: string,
): ServersDocument {
  let current = text ?? '';
  const data = (source: string): Record<string, unknown> => {
    try {
      return parse(source) as Record<string, unknown>;
    } catch (error) {
      // The parser's message may quote the line, which may hold a secret: only its position is kept.
      const where = /line (\d+)/i.exec(error instanceof Error ? error.message : '')?.[1];
      throw configError({ file }, `invalid TOML${where ? ` at line ${where}` : ''}`);
    }
  };
  const serversOf = (root: Record<string, unknown>): Record<string, unknown> => {
    let node: unknown = root;
    for (const [index, key] of serversPath.entries()) {
      node = (node as Record<string, unknown>)[key];
      if (node === undefined) return {};
      if (!isPlainObject(node))
        throw configError({ file, field: serversPath.slice(0, index + 1).join('.') }, 'must be a table');
    }
    return node as Record<string, unknown>;
  };
  /** The whole document with the entry changed, as the result must parse to. */
  const expected = (name: string, value: Record<string, unknown> | undefined) => {
    const root = data(current);
    let node = root;
    for (const key of serversPath) {
      if (!isPlainObject(node[key])) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    if (value === undefined) delete node[name];
    else node[name] = value;
    return root;
  };
  serversOf(data(current));
  const format = { inlineTableStart: 0, bracketSpacing: false };
  return {
    servers: () => plain(serversOf(data(current))) as Record<string, unknown>,
    set: (name, entry) => {
      const wanted = expected(name, entry);
      if (!Object.hasOwn(serversOf(data(current)), name)) {
        const header = `[${[...serversPath, name].map(tomlKey).join('.')}]`;
        const separator =
          current === '' || current.endsWith('\n\n') ? '' : current.endsWith('\n') ? '\n' : '\n\n';
        const appended = `${current}${separator}${header}\n${stringify(entry, format)}`;
        // Appending a table is invalid after an inline `mcp_servers = { … }`: then patch instead.
        if (isDeepStrictEqual(tryParse(appended), plain(wanted))) {
          current = appended;
          return;
        }
      }
      current = patch(current, wanted, format);
    },
    remove: (name) => {
      if (!Object.hasOwn(serversOf(data(current)), name)) return;
      current = patch(current, expected(name, undefined));
    },
    text: () => current,
  };
}

function tryParse(text: string): unknown {
  try {
    return plain(parse(text));
  } catch {
    return undefined;
  }
}

/** The parser's tables (null-prototype objects) as ordinary objects, so they compare with ours. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
}

/** A TOML key: bare when it can be, else a basic string. */
function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}
