/** Limits for {@link jsonBounds}. */
export interface JsonLimits {
  /** Deepest nesting of objects and arrays allowed (a flat object is depth 1). */
  maxDepth?: number;
  /** Largest size allowed, as an estimate of the JSON text in bytes (UTF-16 units of strings). */
  maxBytes?: number;
}

/**
 * Which limit a JSON-like value crosses first: `'depth'`, `'bytes'`, or `undefined` when it is
 * within both. Iterative and stopping at the first crossing, so a hostile value (a million
 * levels deep, hundreds of megabytes) costs no more than the limit and never overflows the stack.
 */
export function jsonBounds(value: unknown, limits: JsonLimits): 'depth' | 'bytes' | undefined {
  const maxDepth = limits.maxDepth ?? Number.POSITIVE_INFINITY;
  const maxBytes = limits.maxBytes ?? Number.POSITIVE_INFINITY;
  // A flat object of strings and scalars (most tools' arguments) is measured without the
  // stacks below; one holding an object or array takes the general path.
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && maxDepth >= 1) {
    const record = value as Record<string, unknown>;
    let bytes = 2;
    let flat = true;
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (typeof item === 'string') bytes += key.length + item.length + 6;
      else if (typeof item !== 'object' || item === null) bytes += key.length + 9;
      else {
        flat = false;
        break;
      }
    }
    if (flat) return bytes > maxBytes ? 'bytes' : undefined;
  }
  // Two parallel stacks (value, depth) rather than a pair per value: this runs on every call's
  // arguments and result, and the pairs were most of its cost.
  const values: unknown[] = [value];
  const depths: number[] = [1];
  let bytes = 0;
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()!;
    if (typeof current === 'string') bytes += current.length + 2;
    else if (typeof current !== 'object' || current === null) bytes += 5;
    else {
      if (depth > maxDepth) return 'depth';
      bytes += 2;
      if (Array.isArray(current)) {
        bytes += current.length;
        for (const item of current) {
          values.push(item);
          depths.push(depth + 1);
        }
      } else {
        const record = current as Record<string, unknown>;
        for (const key of Object.keys(record)) {
          bytes += key.length + 4;
          values.push(record[key]);
          depths.push(depth + 1);
        }
      }
    }
    if (bytes > maxBytes) return 'bytes';
  }
  return undefined;
}

/** `true` when `value` nests objects or arrays deeper than `maxDepth` ({@link jsonBounds}). */
export function exceedsDepth(value: unknown, maxDepth: number): boolean {
  return jsonBounds(value, { maxDepth }) === 'depth';
}
