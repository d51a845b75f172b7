import { isPlainObject } from '../../json/is-plain-object.js';

/** Clients pass numbers and booleans in `env` through as strings; so do we. */
export function stringifyValues(map: unknown): unknown {
  if (!isPlainObject(map)) return map;
  return Object.fromEntries(
    Object.entries(map).map(([key, value]) => [
      key,
      typeof value === 'number' || typeof value === 'boolean' ? String(value) : value,
    ]),
  );
}
