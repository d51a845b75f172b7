import type { BenchQuery } from './load-bench-corpus.js';

/** Aggregated quality figures of one query set (fractions in 0..1). */
export interface QualityFigures {
  queries: number;
  hitAt1: number;
  hitAt5: number;
  lenientHitAt1: number;
  lenientHitAt5: number;
  /** Mean Recall@10 over the multi-tool queries (undefined when there are none). */
  recallAt10?: number;
  multiQueries: number;
}

/** Dev queries name tools `<server>/<tool>`; LiveMCPBench gold names bare tools (any server's counts). */
function matcher(query: BenchQuery): (ranked: string, gold: string) => boolean {
  if (query.kind === 'dev') return (ranked, gold) => ranked === gold;
  return (ranked, gold) => ranked.slice(ranked.indexOf('/') + 1) === gold;
}

function hitWithin(query: BenchQuery, ranked: readonly string[], k: number, lenient: boolean): boolean {
  const matches = matcher(query);
  const wanted = lenient ? [...query.gold, ...query.alternatives] : query.gold;
  return ranked.slice(0, k).some((name) => wanted.some((gold) => matches(name, gold)));
}

/** Share of a query's gold tools found in the first 10 results. */
export function recallAt10(query: BenchQuery, ranked: readonly string[]): number {
  const matches = matcher(query);
  const top = ranked.slice(0, 10);
  const found = query.gold.filter((gold) => top.some((name) => matches(name, gold))).length;
  return found / query.gold.length;
}

/** Hit@1, Hit@5 (strict and lenient) and Recall@10 over the multi-tool queries. */
export function qualityFigures(
  queries: readonly BenchQuery[],
  rankings: ReadonlyMap<string, string[]>,
): QualityFigures {
  let hit1 = 0;
  let hit5 = 0;
  let lenient1 = 0;
  let lenient5 = 0;
  let recallSum = 0;
  let multi = 0;
  for (const query of queries) {
    const ranked = rankings.get(query.id) ?? [];
    if (hitWithin(query, ranked, 1, false)) hit1++;
    if (hitWithin(query, ranked, 5, false)) hit5++;
    if (hitWithin(query, ranked, 1, true)) lenient1++;
    if (hitWithin(query, ranked, 5, true)) lenient5++;
    if (query.multi) {
      multi++;
      recallSum += recallAt10(query, ranked);
    }
  }
  const count = Math.max(1, queries.length);
  return {
    queries: queries.length,
    hitAt1: hit1 / count,
    hitAt5: hit5 / count,
    lenientHitAt1: lenient1 / count,
    lenientHitAt5: lenient5 / count,
    ...(multi > 0 ? { recallAt10: recallSum / multi } : {}),
    multiQueries: multi,
  };
}

/** Mean Recall@10 over every query (used for LiveMCPBench tasks, single-tool ones included). */
export function meanRecallAt10(
  queries: readonly BenchQuery[],
  rankings: ReadonlyMap<string, string[]>,
): number {
  if (queries.length === 0) return 0;
  return (
    queries.reduce((sum, query) => sum + recallAt10(query, rankings.get(query.id) ?? []), 0) / queries.length
  );
}

/** The value at quantile `q` (0..1) of `values`. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
