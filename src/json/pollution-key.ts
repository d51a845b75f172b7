/**
 * The path of the first key in `value` that could pollute a prototype when merged: an own
 * `__proto__` key anywhere, or a `constructor` whose value carries `prototype`. Iterative;
 * `undefined` when there is none.
 */
export function pollutionKey(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  // Two parallel stacks (object, path), and a path built only for a key that is returned or
  // whose value is walked: this runs on every call's arguments, most of them flat objects of
  // strings, which then cost one list of keys and nothing else.
  const values: object[] = [value];
  const paths: string[] = [''];
  while (values.length > 0) {
    const current = values.pop() as Record<string, unknown>;
    const path = paths.pop() as string;
    for (const key of Object.keys(current)) {
      if (key === '__proto__') return path === '' ? key : `${path}.${key}`;
      const item = current[key];
      if (typeof item !== 'object' || item === null) continue;
      const here = path === '' ? key : `${path}.${key}`;
      if (key === 'constructor' && 'prototype' in item) return here;
      values.push(item);
      paths.push(here);
    }
  }
  return undefined;
}
