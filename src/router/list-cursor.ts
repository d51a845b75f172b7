/** Position of a paged router listing: the offset reached, and the server filter it was made with. */
export interface ListCursor {
  offset: number;
  server?: string;
}

/** Encodes a cursor as opaque base64url text, so callers pass it back unchanged. */
export function encodeListCursor(cursor: ListCursor): string {
  const body = cursor.server === undefined ? { o: cursor.offset } : { o: cursor.offset, s: cursor.server };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/** Decodes a cursor made by {@link encodeListCursor}; `undefined` when it is not one. */
export function decodeListCursor(text: string): ListCursor | undefined {
  try {
    const body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as { o?: unknown; s?: unknown };
    if (typeof body.o !== 'number' || !Number.isInteger(body.o) || body.o < 0) return undefined;
    if (body.s !== undefined && typeof body.s !== 'string') return undefined;
    return body.s === undefined ? { offset: body.o } : { offset: body.o, server: body.s };
  } catch {
    return undefined;
  }
}
