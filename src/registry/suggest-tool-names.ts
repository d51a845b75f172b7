import { editDistance } from '../text/edit-distance.js';

/** Splits an identifier into lowercase words: snake_case, kebab-case, camelCase, dotted, namespaced. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1);
}

/**
 * Names among `candidates` close to `name`, best first: small edit distance (to the whole
 * name or to its part after the last `__`), shared words, or containment. Used to answer
 * an unknown tool name with "did you mean".
 */
export function suggestToolNames(name: string, candidates: string[], limit = 5): string[] {
  const query = name.toLowerCase();
  const queryWords = new Set(words(name));
  const scored: { candidate: string; shared: number; distance: number }[] = [];
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    const separator = lower.lastIndexOf('__');
    const tail = separator >= 0 ? lower.slice(separator + 2) : lower;
    const distance = Math.min(editDistance(query, lower), editDistance(query, tail));
    const shared = words(candidate).filter((word) => queryWords.has(word)).length;
    const close = distance <= Math.max(2, Math.floor(query.length / 3));
    const contains =
      query.length >= 3 && (lower.includes(query) || (tail.length >= 3 && query.includes(tail)));
    if (close || shared > 0 || contains) scored.push({ candidate, shared, distance });
  }
  scored.sort(
    (left, right) =>
      right.shared - left.shared ||
      left.distance - right.distance ||
      left.candidate.localeCompare(right.candidate),
  );
  return scored.slice(0, limit).map((entry) => entry.candidate);
}
