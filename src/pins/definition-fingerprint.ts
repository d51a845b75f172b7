import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { PinnedKind } from '../config/pins-config.js';
import { sameJson } from './same-json.js';

/**
 * The fields of each kind of definition that reach the model (and so may carry instructions to
 * it). Anything else an upstream adds is left out, so that an unrelated new field of the
 * protocol never quarantines a whole server.
 */
export const PINNED_FIELDS: Readonly<Record<PinnedKind, readonly string[]>> = {
  tool: ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', '_meta'],
  prompt: ['name', 'title', 'description', 'arguments', '_meta'],
  template: ['name', 'title', 'uriTemplate', 'description', 'mimeType', 'annotations', '_meta'],
};

/**
 * The part of `definition` a pin covers: the {@link PINNED_FIELDS} of its kind that it has,
 * less the `ignore`d ones (fields a server is known to change on its own, such as a
 * description that carries today's date).
 */
export function pinnedView(
  kind: PinnedKind,
  definition: object,
  ignore: readonly string[] = [],
): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const field of PINNED_FIELDS[kind]) {
    if (ignore.includes(field) || !Object.hasOwn(definition, field)) continue;
    const value = (definition as Record<string, unknown>)[field];
    if (value !== undefined) view[field] = value;
  }
  return view;
}

/**
 * The fingerprint of a definition: SHA-256 over the RFC 8785 canonical JSON of its
 * {@link pinnedView}, as `sha256:<hex>`. Key order and JSON formatting never change it; any
 * change of a value does, whitespace inside a string included.
 */
export function definitionFingerprint(
  kind: PinnedKind,
  definition: object,
  ignore: readonly string[] = [],
): string {
  return fingerprintOfCanonical(canonicalView(pinnedView(kind, definition, ignore)));
}

/**
 * Whether `definition`'s {@link pinnedView} is the same JSON as `known` (a pinned view parsed
 * from canonical JSON), compared field by field without building the view.
 */
export function sameView(
  kind: PinnedKind,
  definition: object,
  ignore: readonly string[],
  known: Record<string, unknown>,
): boolean {
  let count = 0;
  for (const field of PINNED_FIELDS[kind]) {
    if (ignore.includes(field) || !Object.hasOwn(definition, field)) continue;
    const value = (definition as Record<string, unknown>)[field];
    if (value === undefined) continue;
    if (!Object.hasOwn(known, field) || !sameJson(value, known[field])) return false;
    count++;
  }
  return count === Object.keys(known).length;
}

/** The RFC 8785 canonical JSON of a {@link pinnedView}. */
export function canonicalView(view: Record<string, unknown>): string {
  return canonicalize(view) ?? '{}';
}

/** The fingerprint (`sha256:<hex>`) of a pinned view's canonical JSON. */
export function fingerprintOfCanonical(canonical: string): string {
  return `sha256:${createHash('sha256').update(canonical).digest('hex')}`;
}

/**
 * The fields whose values differ between two pinned views, in {@link PINNED_FIELDS} order, and
 * whether the difference is whitespace inside strings only (labelled cosmetic, still a change).
 */
export function changedFields(
  kind: PinnedKind,
  before: object,
  after: object,
): { fields: string[]; cosmetic: boolean } {
  const fields: string[] = [];
  let cosmetic = true;
  for (const field of PINNED_FIELDS[kind]) {
    const a = (before as Record<string, unknown>)[field];
    const b = (after as Record<string, unknown>)[field];
    if (canonicalize(a ?? null) === canonicalize(b ?? null)) continue;
    fields.push(field);
    if (canonicalize(squeezeWhitespace(a ?? null)) !== canonicalize(squeezeWhitespace(b ?? null)))
      cosmetic = false;
  }
  return { fields, cosmetic: fields.length > 0 && cosmetic };
}

/** `value` with every run of whitespace in its strings made one space and trimmed. */
function squeezeWhitespace(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\s+/g, ' ').trim();
  if (Array.isArray(value)) return value.map(squeezeWhitespace);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, squeezeWhitespace(inner)]));
  return value;
}
