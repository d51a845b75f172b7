/**
 * Whether `fresh` serialises to the same canonical JSON as `known`, a plain JSON value (parsed
 * from canonical JSON, so it holds no `undefined`, no prototype but `Object`'s and no `-0`
 * distinct from `0`). Key order is ignored, as canonical JSON ignores it. `false` whenever in
 * doubt (a class instance, a `toJSON`, an `undefined` member): the caller then fingerprints
 * canonically, so a wrong `false` costs time and a `true` is always exact.
 */
export function sameJson(fresh: unknown, known: unknown): boolean {
  if (fresh === known) return typeof fresh !== 'number' || Number.isFinite(fresh);
  if (typeof fresh !== 'object' || fresh === null || typeof known !== 'object' || known === null)
    return false;
  if (Array.isArray(fresh)) {
    if (!Array.isArray(known) || fresh.length !== known.length) return false;
    for (let i = 0; i < fresh.length; i++) if (!sameJson(fresh[i], known[i])) return false;
    return true;
  }
  if (Array.isArray(known)) return false;
  const prototype = Object.getPrototypeOf(fresh);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const keys = Object.keys(fresh);
  if (keys.length !== Object.keys(known).length) return false;
  // With as many own enumerable keys, every key of `fresh` being one of `known`'s means the same
  // key set (inherited ones are ruled out by the prototype check).
  for (const key of keys) {
    if (!Object.hasOwn(known, key)) return false;
    if (!sameJson((fresh as Record<string, unknown>)[key], (known as Record<string, unknown>)[key]))
      return false;
  }
  return true;
}
