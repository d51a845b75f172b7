import { shortHash } from '../registry/tool-name.js';
import { formatBytes } from '../tool/result.js';
import { decodeCursor, encodeCursor } from './list-cursor.js';
import type { ToolIndexEntry } from './tool-index-entry.js';

/** Position of a `tool_index` page: the offset reached and a fingerprint of the query it belongs to. */
export interface ToolIndexCursor {
  offset: number;
  query: string;
}

/** A fingerprint of the arguments that decide the result list, so a cursor cannot page another query. */
export function queryFingerprint(parts: readonly unknown[]): string {
  return shortHash(JSON.stringify(parts));
}

/** A `tool_index` cursor, scoped to its query's fingerprint. */
export function encodeToolIndexCursor(cursor: ToolIndexCursor): string {
  return encodeCursor({ offset: cursor.offset, scope: cursor.query });
}

/** Decodes a cursor made by {@link encodeToolIndexCursor}; `undefined` when it is not one. */
export function decodeToolIndexCursor(text: string): ToolIndexCursor | undefined {
  const cursor = decodeCursor(text);
  return cursor?.scope === undefined ? undefined : { offset: cursor.offset, query: cursor.scope };
}

/** One page of entries cut to a byte budget. */
export interface ToolIndexPage {
  entries: ToolIndexEntry[];
  /** `true` when the byte budget (not `limit`) ended the page before the list did. */
  truncated: boolean;
  /** Offset of the first entry not shown, when any remain. */
  nextOffset?: number;
}

/**
 * Takes entries (built on demand by `entryAt`) from `offset` until `limit` entries or `budgetBytes` of JSON (on top of
 * `overheadBytes` for the rest of the response) would be exceeded, cutting only between
 * whole entries. The first entry is always taken, so paging always advances.
 */
export function takePage(
  total: number,
  entryAt: (index: number) => ToolIndexEntry,
  offset: number,
  limit: number,
  budgetBytes: number,
  overheadBytes: number,
): ToolIndexPage {
  const page: ToolIndexEntry[] = [];
  let used = overheadBytes;
  let index = offset;
  let truncated = false;
  while (index < total && page.length < limit) {
    let entry = entryAt(index);
    let size = Buffer.byteLength(JSON.stringify(entry), 'utf8') + (page.length > 0 ? 1 : 0);
    if (overheadBytes + size > budgetBytes && entry.input_schema !== undefined) {
      // One entry alone would break the budget: the schema goes, a notice says so.
      entry = withoutSchema(entry, size, budgetBytes);
      size = Buffer.byteLength(JSON.stringify(entry), 'utf8') + (page.length > 0 ? 1 : 0);
    }
    if (page.length > 0 && used + size > budgetBytes) {
      truncated = true;
      break;
    }
    page.push(entry);
    used += size;
    index++;
  }
  return { entries: page, truncated, ...(index < total ? { nextOffset: index } : {}) };
}

/** `entry` with its `input_schema` replaced by `schema_omitted`, a notice naming the sizes. */
function withoutSchema(entry: ToolIndexEntry, size: number, budgetBytes: number): ToolIndexEntry {
  const { input_schema: _schema, ...rest } = entry;
  return {
    ...rest,
    schema_omitted: `input_schema omitted: this entry is ${formatBytes(size)}, over the ${formatBytes(budgetBytes)} budget of a tool_index response; call the tool and the server checks the arguments`,
  };
}
