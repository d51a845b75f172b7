/**
 * The path of the first key in `value` that could pollute a prototype when merged: an own
 * `__proto__` key anywhere, or a `constructor` whose value carries `prototype`. Iterative;
 * `undefined` when there is none.
 */
export function pollutionKey(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    for (const [key, item] of Object.entries(current)) {
      const here = path === '' ? key : `${path}.${key}`;
      if (key === '__proto__') return here;
      if (key === 'constructor' && typeof item === 'object' && item !== null && 'prototype' in item)
        return here;
      stack.push([item, here]);
    }
  }
  return undefined;
}
