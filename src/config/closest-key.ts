/**
 * The known key closest to a misspelt one (`comand` → `command`), or `undefined` when none is
 * within a small edit distance. Used only for "did you mean" hints in configuration errors.
 */
export function closestKey(key: string, knownKeys: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(key.length / 3));
  let best: { key: string; distance: number } | undefined;
  for (const candidate of knownKeys) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance))
      best = { key: candidate, distance };
  }
  return best?.key;
}

/** Optimal-string-alignment distance: a swap of two neighbours (`agrs`) counts as one edit. */
function editDistance(left: string, right: string): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const substitution = previous[column - 1]! + (left[row - 1] === right[column - 1] ? 0 : 1);
      let best = Math.min(previous[column]! + 1, current[column - 1]! + 1, substitution);
      const swapped =
        row > 1 && column > 1 && left[row - 1] === right[column - 2] && left[row - 2] === right[column - 1];
      if (swapped) best = Math.min(best, beforePrevious[column - 2]! + 1);
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[right.length]!;
}
