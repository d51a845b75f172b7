/**
 * `true` when `value` nests objects or arrays deeper than `maxDepth` (a flat object is depth 1).
 * Iterative, and stops at the first branch too deep, so a hostile value a million levels deep
 * costs as little as a shallow one and never overflows the stack.
 */
export function exceedsDepth(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > maxDepth) return true;
    for (const item of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof item === 'object' && item !== null) stack.push([item, depth + 1]);
    }
  }
  return false;
}
