/**
 * Search benchmark. Either one corpus and one query set:
 *   node --import tsx bench/search/run-search-bench.ts --tools <toolcorpus dir | tools.json> \
 *     --queries <queries-dev.jsonl | queries.json> [--out rankings.jsonl]
 * or the whole suite over a bench directory (both corpora, every query set, latency over the
 * 979 tools together, token footprint):
 *   node --import tsx bench/search/run-search-bench.ts [--suite bench/data] [--out rankings.jsonl]
 * `--variant plain` runs the plain BM25 baseline; `--tuning '{"synonymWeight":0}'` overrides knobs.
 * `--embed <module>` fuses the ranking with an embedding model: the module's default export is
 * an `EmbedTexts` function (see `use-embedder.ts`); `--semantic-weight 0.2` sets its share (default: the library's).
 * `--embed <http(s) URL> --embed-model <name>` uses an OpenAI-compatible embeddings endpoint instead
 * (key from `EMBED_API_KEY`; `--query-prefix`, `--document-prefix` for models trained with them).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { EmbedTexts } from '../../src/router/search/embed-batches.js';
import { openAIEmbeddings } from '../../src/router/search/openai-embeddings.js';
import { DEFAULT_SEARCH_TUNING, type SearchTuning } from '../../src/router/search/search-tuning.js';
import type { SearchableTool } from '../../src/router/search/searchable-tool.js';
import {
  DEFAULT_SEMANTIC_WEIGHT,
  type SemanticSearchOptions,
} from '../../src/router/search/semantic-search.js';
import { ToolAnalysisCache } from '../../src/router/search/tool-analysis-cache.js';
import { createToolSearchIndex, type ToolSearchIndex } from '../../src/router/search/tool-search-index.js';
import { ToolIndexRanker } from '../../src/router/tool-index-ranking.js';
import { DEFAULT_BENCH_SUITE } from './bench-suite.js';
import { type BenchQuery, type BenchTool, loadBenchQueries, loadBenchTools } from './load-bench-corpus.js';
import { createPlainBm25Index } from './plain-bm25.js';
import { meanRecallAt10, type QualityFigures, qualityFigures, quantile } from './search-metrics.js';
import { tokenFigures } from './token-figures.js';

const { values } = parseArgs({
  options: {
    tools: { type: 'string' },
    queries: { type: 'string' },
    suite: { type: 'string' },
    out: { type: 'string' },
    variant: { type: 'string', default: 'default' },
    tuning: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    embed: { type: 'string' },
    'semantic-weight': { type: 'string' },
    'embed-model': { type: 'string' },
    'query-prefix': { type: 'string' },
    'document-prefix': { type: 'string' },
  },
});

async function loadEmbedder(spec: string): Promise<EmbedTexts> {
  if (!/^https?:\/\//.test(spec))
    return ((await import(pathToFileURL(resolve(spec)).href)) as { default: EmbedTexts }).default;
  const model = values['embed-model'];
  if (model === undefined) throw new Error('--embed with a URL needs --embed-model');
  return openAIEmbeddings({
    url: spec,
    model,
    ...(process.env.EMBED_API_KEY ? { apiKey: process.env.EMBED_API_KEY } : {}),
    ...(values['query-prefix'] !== undefined ? { queryPrefix: values['query-prefix'] } : {}),
    ...(values['document-prefix'] !== undefined ? { documentPrefix: values['document-prefix'] } : {}),
  });
}

const semantic: SemanticSearchOptions | undefined = values.embed
  ? {
      embed: await loadEmbedder(values.embed),
      weight:
        values['semantic-weight'] === undefined ? DEFAULT_SEMANTIC_WEIGHT : Number(values['semantic-weight']),
      // Measure the fused ranking of every query, never the lexical fallback of a slow model.
      waitMs: Number.POSITIVE_INFINITY,
    }
  : undefined;

const tuning: SearchTuning = {
  ...DEFAULT_SEARCH_TUNING,
  ...(values.tuning ? JSON.parse(values.tuning) : {}),
};
const buildIndex = (tools: readonly SearchableTool[]): ToolSearchIndex =>
  values.variant === 'plain' ? createPlainBm25Index(tools) : createToolSearchIndex(tools, tuning);
const percent = (value: number | undefined) => (value === undefined ? 'n/a' : `${(value * 100).toFixed(1)}%`);

async function runQueries(
  tools: readonly SearchableTool[],
  index: ToolSearchIndex,
  queries: readonly BenchQuery[],
): Promise<Map<string, string[]>> {
  const rankings = new Map<string, string[]>();
  if (!semantic) {
    for (const query of queries)
      rankings.set(
        query.id,
        index.search(query.query, { limit: 10 }).map((hit) => hit.name),
      );
    return rankings;
  }
  // The product's own path: tool_index's ranker over this corpus.
  const ranker = new ToolIndexRanker(semantic);
  const corpus = { entries: tools, searchIndex: () => index };
  const started = performance.now();
  const first = await ranker.rank(corpus, 'warm up: embed every tool', {});
  if (first.warning) throw new Error(first.warning);
  const embedded = performance.now() - started;
  let queryMs = 0;
  for (const query of queries) {
    const start = performance.now();
    const ranking = await ranker.rank(corpus, query.query, {});
    if (ranking.warning) throw new Error(ranking.warning);
    queryMs += performance.now() - start;
    rankings.set(
      query.id,
      ranking.hits.slice(0, 10).map((hit) => hit.name),
    );
  }
  console.log(
    `semantic: embedded ${tools.length} tools in ${embedded.toFixed(0)} ms; ${(queryMs / Math.max(1, queries.length)).toFixed(1)} ms per query (embed + fuse)`,
  );
  return rankings;
}

function report(label: string, figures: QualityFigures, lenient: boolean): void {
  const parts = [`Hit@1 ${percent(figures.hitAt1)}`, `Hit@5 ${percent(figures.hitAt5)}`];
  if (lenient)
    parts.push(
      `lenient Hit@1 ${percent(figures.lenientHitAt1)}`,
      `lenient Hit@5 ${percent(figures.lenientHitAt5)}`,
    );
  if (figures.recallAt10 !== undefined)
    parts.push(`Recall@10 (multi, n=${figures.multiQueries}) ${percent(figures.recallAt10)}`);
  console.log(`${label} (n=${figures.queries}): ${parts.join(', ')}`);
}

async function evaluate(
  tools: BenchTool[],
  queries: BenchQuery[],
  label: string,
  results: Record<string, unknown>,
) {
  const index = buildIndex(tools);
  const rankings = await runQueries(tools, index, queries);
  const dev = queries.filter((query) => query.kind === 'dev');
  const allSteps = queries.filter((query) => query.kind === 'step');
  const steps = allSteps.filter((query) => query.reachable !== false);
  const tasks = queries.filter((query) => query.kind === 'task');
  if (dev.length > 0) {
    const figures = qualityFigures(dev, rankings);
    report(`${label} queries-dev`, figures, true);
    const nonEnglish = dev.filter((query) => query.lang !== undefined && query.lang !== 'en');
    if (nonEnglish.length > 0)
      report(`${label} queries-dev non-English`, qualityFigures(nonEnglish, rankings), true);
    results.dev = figures;
  }
  if (steps.length > 0) {
    const figures = qualityFigures(steps, rankings);
    report(`${label} LiveMCPBench steps`, figures, false);
    if (allSteps.length > steps.length) {
      const withUnreachable = qualityFigures(allSteps, rankings);
      report(
        `${label} LiveMCPBench steps incl. ${allSteps.length - steps.length} whose gold is not in tools.json`,
        withUnreachable,
        false,
      );
      results.stepsInclUnreachable = withUnreachable;
    }
    results.steps = figures;
  }
  if (tasks.length > 0) {
    const all = meanRecallAt10(tasks, rankings);
    const multi = tasks.filter((query) => query.multi);
    const multiRecall = meanRecallAt10(multi, rankings);
    console.log(
      `${label} LiveMCPBench tasks: Recall@10 all (n=${tasks.length}) ${percent(all)}, multi-tool (n=${multi.length}) ${percent(multiRecall)}`,
    );
    const strict = meanRecallAt10(
      tasks.map((query) => ({ ...query, gold: query.goldIncludingMissing ?? query.gold })),
      rankings,
    );
    console.log(
      `${label} LiveMCPBench tasks: Recall@10 against every gold_tools entry, missing ones included: ${percent(strict)}`,
    );
    results.tasks = {
      queries: tasks.length,
      recallAt10: all,
      multiQueries: multi.length,
      multiRecallAt10: multiRecall,
      recallAt10InclMissing: strict,
    };
  }
  return rankings;
}

/** Wall-clock and CPU milliseconds of `run`; CPU time is what to compare on a busy machine. */
function timed(run: () => void): { wall: number; cpu: number } {
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  run();
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

function latency(tools: BenchTool[], queries: BenchQuery[]) {
  const builds: { wall: number; cpu: number }[] = [];
  let index = buildIndex(tools);
  for (let round = 0; round < 7; round++) {
    builds.push(
      timed(() => {
        index = buildIndex(tools);
      }),
    );
  }
  for (const query of queries) index.search(query.query, { limit: 10 });
  const times: number[] = [];
  let searchCpu = 0;
  for (let round = 0; round < 3; round++) {
    for (const query of queries) {
      const run = timed(() => index.search(query.query, { limit: 10 }));
      times.push(run.wall);
      searchCpu += run.cpu;
    }
  }
  // What tool_index does after a registry change: analysis is cached per tool object, so
  // only the changed server's tools (here: fresh copies of one server's) are analyzed again.
  const rebuilds: { wall: number; cpu: number }[] = [];
  if (values.variant !== 'plain') {
    const cache = new ToolAnalysisCache();
    createToolSearchIndex(tools, tuning, cache);
    const changedServer = tools[0]?.server;
    for (let round = 0; round < 7; round++) {
      const changed = tools.map((tool) => (tool.server === changedServer ? { ...tool } : tool));
      rebuilds.push(timed(() => createToolSearchIndex(changed, tuning, cache)));
    }
  }
  const median = (runs: { wall: number; cpu: number }[], key: 'wall' | 'cpu') =>
    quantile(
      runs.map((run) => run[key]),
      0.5,
    );
  const figures = {
    tools: tools.length,
    buildMs: median(builds, 'wall'),
    buildCpuMs: median(builds, 'cpu'),
    ...(rebuilds.length > 0
      ? {
          rebuildAfterOneServerChangeMs: median(rebuilds, 'wall'),
          rebuildAfterOneServerChangeCpuMs: median(rebuilds, 'cpu'),
        }
      : {}),
    searchP50Ms: quantile(times, 0.5),
    searchP95Ms: quantile(times, 0.95),
    searchMeanCpuMs: searchCpu / Math.max(1, times.length),
    searches: times.length,
  };
  const rebuild =
    figures.rebuildAfterOneServerChangeMs === undefined
      ? ''
      : `; rebuild after one server changed ${figures.rebuildAfterOneServerChangeMs.toFixed(1)} ms (CPU ${figures.rebuildAfterOneServerChangeCpuMs?.toFixed(1)} ms)`;
  console.log(
    `latency over ${figures.tools} tools: build ${figures.buildMs.toFixed(1)} ms (CPU ${figures.buildCpuMs.toFixed(1)} ms, median of 7)${rebuild}; ` +
      `search p50 ${figures.searchP50Ms.toFixed(3)} ms, p95 ${figures.searchP95Ms.toFixed(3)} ms, mean CPU ${figures.searchMeanCpuMs.toFixed(3)} ms (${figures.searches} searches)`,
  );
  return figures;
}

function writeRankings(path: string, queries: readonly BenchQuery[], rankings: Map<string, string[]>) {
  const rows = queries.map((query) => ({ id: query.id, ranked: rankings.get(query.id) ?? [] }));
  // `.json` gets one JSON array; anything else JSON Lines.
  const text = path.endsWith('.json')
    ? `${JSON.stringify(rows, null, 1)}\n`
    : `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
  writeFileSync(path, text);
}

const results: Record<string, unknown> = {
  variant: values.variant,
  tuning,
  ...(semantic ? { embed: values.embed, semanticWeight: semantic.weight } : {}),
  date: new Date().toISOString(),
};
let allQueries: BenchQuery[] = [];
let allRankings = new Map<string, string[]>();

const suite = values.suite ?? (values.tools || values.queries ? undefined : DEFAULT_BENCH_SUITE);
if (suite) {
  const corpus = loadBenchTools(join(suite, 'toolcorpus'));
  const live = loadBenchTools(join(suite, 'livemcpbench', 'tools.json'));
  const devQueries = loadBenchQueries(join(suite, 'queries-dev.jsonl'), new Set());
  const liveQueries = loadBenchQueries(
    join(suite, 'livemcpbench', 'queries.json'),
    new Set(live.map((tool) => tool.originalName)),
  );
  const devResults: Record<string, unknown> = {};
  const liveResults: Record<string, unknown> = {};
  const devRankings = await evaluate(corpus, devQueries, 'toolcorpus', devResults);
  const liveRankings = await evaluate(live, liveQueries, 'livemcpbench', liveResults);
  Object.assign(results, { toolcorpus: devResults, livemcpbench: liveResults });
  results.latency = latency([...corpus, ...live], [...devQueries, ...liveQueries]);
  if (values.variant !== 'plain') results.tokens = await tokenFigures(corpus, devQueries, !values.quiet);
  allQueries = [...devQueries, ...liveQueries];
  allRankings = new Map([...devRankings, ...liveRankings]);
} else if (values.tools && values.queries) {
  const tools = loadBenchTools(values.tools);
  const queries = loadBenchQueries(values.queries, new Set(tools.map((tool) => tool.originalName)));
  allRankings = await evaluate(tools, queries, 'search', results);
  allQueries = queries;
  results.latency = latency(tools, queries);
} else {
  console.error(
    'usage: run-search-bench.ts [--suite <bench dir> (default bench/data) | --tools <path> --queries <path>] [--out <file>]',
  );
  process.exit(2);
}

if (values.out) writeRankings(values.out, allQueries, allRankings);
const resultsDir = join(import.meta.dirname, '..', 'results');
mkdirSync(resultsDir, { recursive: true });
const resultsFile = join(
  resultsDir,
  `search-${values.variant}${semantic ? '-semantic' : ''}-${Date.now()}.json`,
);
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
if (!values.quiet) console.log(`results written to ${resultsFile}`);
