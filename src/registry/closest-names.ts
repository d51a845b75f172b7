/** Levenshtein distance, capped: enough to rank a handful of suggestions. */
function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!;
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length]!;
}

/** Up to `limit` names closest to `name`: substring matches first, then by edit distance. */
export function closestNames(name: string, candidates: string[], limit = 3): string[] {
  const lower = name.toLowerCase();
  return candidates
    .map((candidate) => {
      const other = candidate.toLowerCase();
      const contains = other.includes(lower) || lower.includes(other.split('__').pop() ?? other);
      return { candidate, score: (contains ? 0 : 100) + editDistance(lower, other) };
    })
    .filter((entry) => entry.score < 100 + Math.max(3, lower.length / 2))
    .sort((a, b) => a.score - b.score)
    .slice(0, limit)
    .map((entry) => entry.candidate);
}
