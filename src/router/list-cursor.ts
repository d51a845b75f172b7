/** Position of a paged router listing: the offset reached, and what the listing was scoped to. */
export interface PageCursor {
  offset: number;
  /** The filter or query the cursor belongs to; a cursor only continues its own listing. */
  scope?: string;
}

/** Encodes a cursor as opaque base64url text, so callers pass it back unchanged. */
export function encodeCursor(cursor: PageCursor): string {
  const body = cursor.scope === undefined ? { o: cursor.offset } : { o: cursor.offset, s: cursor.scope };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/** Decodes a cursor made by {@link encodeCursor}; `undefined` when it is not one. */
export function decodeCursor(text: string): PageCursor | undefined {
  try {
    const body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as { o?: unknown; s?: unknown };
    if (typeof body.o !== 'number' || !Number.isInteger(body.o) || body.o < 0) return undefined;
    if (body.s !== undefined && typeof body.s !== 'string') return undefined;
    return body.s === undefined ? { offset: body.o } : { offset: body.o, scope: body.s };
  } catch {
    return undefined;
  }
}

/** Position of a resource listing: the offset reached, and the server filter it was made with. */
export interface ListCursor {
  offset: number;
  server?: string;
}

/** A `list_mcp_resources` cursor. */
export function encodeListCursor(cursor: ListCursor): string {
  return encodeCursor(
    cursor.server === undefined ? { offset: cursor.offset } : { offset: cursor.offset, scope: cursor.server },
  );
}

/** Decodes a cursor made by {@link encodeListCursor}; `undefined` when it is not one. */
export function decodeListCursor(text: string): ListCursor | undefined {
  const cursor = decodeCursor(text);
  if (cursor === undefined) return undefined;
  return cursor.scope === undefined
    ? { offset: cursor.offset }
    : { offset: cursor.offset, server: cursor.scope };
}
