import { editDistance } from '../../text/edit-distance.js';

/**
 * The sorted set of index terms, for prefix and typo expansion of query words that the
 * index does not hold as such (`repo` → `repositori`, `serach` → `search`).
 */
export class Vocabulary {
  readonly #terms: string[];
  readonly #byLength = new Map<number, string[]>();

  constructor(terms: Iterable<string>) {
    this.#terms = [...new Set(terms)].sort();
    for (const term of this.#terms) {
      const bucket = this.#byLength.get(term.length) ?? [];
      bucket.push(term);
      this.#byLength.set(term.length, bucket);
    }
  }

  /** Terms that start with `prefix` (excluding `prefix` itself), at most `limit` of them. */
  withPrefix(prefix: string, limit: number): string[] {
    let low = 0;
    let high = this.#terms.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.#terms[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    const found: string[] = [];
    for (let index = low; index < this.#terms.length && found.length < limit; index++) {
      const term = this.#terms[index]!;
      if (!term.startsWith(prefix)) break;
      if (term !== prefix) found.push(term);
    }
    return found;
  }

  /** Terms one edit away from `word`, looked up only among terms of a similar length. */
  near(word: string, limit: number): string[] {
    const found: string[] = [];
    for (let length = word.length - 1; length <= word.length + 1; length++) {
      for (const term of this.#byLength.get(length) ?? []) {
        if (term !== word && term[0] === word[0] && editDistance(term, word) <= 1) {
          found.push(term);
          if (found.length >= limit) return found;
        }
      }
    }
    return found;
  }
}
