import { isSchemaRecord } from './schema-record.js';

/** Appends one reference token to a JSON pointer, escaping `~` and `/` (RFC 6901). */
export function childPointer(pointer: string, token: string | number): string {
  return `${pointer}/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * Resolves a local `$ref` (`#`, `#/$defs/x`, `#/properties/a/items`) against `root`; `undefined`
 * when it is not local or points nowhere. Tokens are URI-decoded, then `~1`/`~0` unescaped.
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const pointer = ref.slice(1);
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isSchemaRecord(node)) node = Object.hasOwn(node, token) ? node[token] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}
