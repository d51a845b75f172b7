/**
 * Compares ranking variants on every query set in one run, one line per variant:
 *   node --import tsx bench/search/tune-search.ts [--suite bench/data] \
 *     --variant '{}' --variant '{"synonymWeight":0}' ...
 * Each variant is a partial SearchTuning merged over the defaults.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SEARCH_TUNING, type SearchTuning } from '../../src/router/search/search-tuning.js';
import { createToolSearchIndex } from '../../src/router/search/tool-search-index.js';
import { DEFAULT_BENCH_SUITE } from './bench-suite.js';
import { type BenchQuery, type BenchTool, loadBenchQueries, loadBenchTools } from './load-bench-corpus.js';
import { meanRecallAt10, qualityFigures } from './search-metrics.js';

const { values } = parseArgs({
  options: { suite: { type: 'string' }, variant: { type: 'string', multiple: true, default: ['{}'] } },
});
const suite = values.suite ?? DEFAULT_BENCH_SUITE;
const corpus = loadBenchTools(join(suite, 'toolcorpus'));
const live = loadBenchTools(join(suite, 'livemcpbench', 'tools.json'));
const dev = loadBenchQueries(join(suite, 'queries-dev.jsonl'), new Set());
const liveQueries = loadBenchQueries(
  join(suite, 'livemcpbench', 'queries.json'),
  new Set(live.map((tool) => tool.originalName)),
);

function rank(tools: BenchTool[], queries: BenchQuery[], tuning: SearchTuning) {
  const index = createToolSearchIndex(tools, tuning);
  return new Map(
    queries.map((query) => [query.id, index.search(query.query, { limit: 10 }).map((hit) => hit.name)]),
  );
}

const pct = (value: number | undefined) => `${((value ?? 0) * 100).toFixed(1)}`.padStart(5);
console.log('devH1 devH5 devL5 | stepH1 stepH5 | taskR10 multiR10 | variant');
for (const variant of values.variant) {
  const override = JSON.parse(variant) as Partial<SearchTuning>;
  const tuning: SearchTuning = {
    ...DEFAULT_SEARCH_TUNING,
    ...override,
    fieldWeights: { ...DEFAULT_SEARCH_TUNING.fieldWeights, ...override.fieldWeights },
    lengthNormalization: { ...DEFAULT_SEARCH_TUNING.lengthNormalization, ...override.lengthNormalization },
  };
  const devFigures = qualityFigures(dev, rank(corpus, dev, tuning));
  const liveRankings = rank(live, liveQueries, tuning);
  const steps = qualityFigures(
    liveQueries.filter((query) => query.kind === 'step' && query.reachable !== false),
    liveRankings,
  );
  const tasks = liveQueries.filter((query) => query.kind === 'task');
  console.log(
    `${pct(devFigures.hitAt1)} ${pct(devFigures.hitAt5)} ${pct(devFigures.lenientHitAt5)} | ${pct(steps.hitAt1)}  ${pct(steps.hitAt5)} | ${pct(meanRecallAt10(tasks, liveRankings))}   ${pct(
      meanRecallAt10(
        tasks.filter((query) => query.multi),
        liveRankings,
      ),
    )}  | ${variant}`,
  );
}
