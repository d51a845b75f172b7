import { editDistance } from '../text/edit-distance.js';

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
