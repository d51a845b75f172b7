/**
 * Prints the queries whose gold tool is not in the top 5, with the top 5 and the gold's rank:
 *   node --import tsx bench/search/show-misses.ts [--suite bench/data] [--kind dev|step|task]
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SEARCH_TUNING } from '../../src/router/search/search-tuning.js';
import { createToolSearchIndex } from '../../src/router/search/tool-search-index.js';
import { DEFAULT_BENCH_SUITE } from './bench-suite.js';
import { loadBenchQueries, loadBenchTools } from './load-bench-corpus.js';

const { values } = parseArgs({
  options: {
    suite: { type: 'string' },
    kind: { type: 'string', default: 'dev' },
    tuning: { type: 'string' },
  },
});
const suite = values.suite ?? DEFAULT_BENCH_SUITE;
const tuning = { ...DEFAULT_SEARCH_TUNING, ...(values.tuning ? JSON.parse(values.tuning) : {}) };
const live = values.kind !== 'dev';
const tools = live
  ? loadBenchTools(join(suite, 'livemcpbench', 'tools.json'))
  : loadBenchTools(join(suite, 'toolcorpus'));
const queries = live
  ? loadBenchQueries(
      join(suite, 'livemcpbench', 'queries.json'),
      new Set(tools.map((tool) => tool.originalName)),
    )
  : loadBenchQueries(join(suite, 'queries-dev.jsonl'), new Set());
const index = createToolSearchIndex(tools, tuning);
const bare = (name: string) => name.slice(name.indexOf('/') + 1);
for (const query of queries.filter((entry) => entry.kind === values.kind)) {
  const ranked = index.search(query.query, { limit: tools.length }).map((hit) => hit.name);
  const wanted = [...query.gold, ...query.alternatives];
  const rankOf = (gold: string) => ranked.findIndex((name) => (live ? bare(name) === gold : name === gold));
  const ranks = wanted.map(rankOf).filter((rank) => rank >= 0);
  const best = ranks.length > 0 ? Math.min(...ranks) : -1;
  if (best >= 0 && best < 5 && values.kind !== 'task') continue;
  console.log(`\n${query.id} [best rank ${best < 0 ? 'none' : best + 1}] ${query.query}`);
  console.log(`  gold: ${query.gold.map((gold) => `${gold}@${rankOf(gold) + 1}`).join(', ')}`);
  console.log(`  top5: ${ranked.slice(0, 5).join(', ')}`);
}
