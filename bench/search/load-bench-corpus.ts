import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { SearchableTool } from '../../src/router/search/searchable-tool.js';

/** A benchmark tool: searchable, named `<server>/<tool>`, with its raw schema. */
export interface BenchTool extends SearchableTool {
  server: string;
  originalName: string;
  parameters: Record<string, unknown>;
}

/** One benchmark query with its gold answers. */
export interface BenchQuery {
  id: string;
  query: string;
  /** `dev` (queries-dev.jsonl), `step` (one LiveMCPBench step), `task` (a whole LiveMCPBench task). */
  kind: 'dev' | 'step' | 'task';
  /** Full `<server>/<tool>` names for dev queries; bare tool names for LiveMCPBench. */
  gold: string[];
  /** Equally good answers (dev queries only). */
  alternatives: string[];
  multi: boolean;
  lang?: string;
  /** A task's `gold_tools` including those missing from tools.json (LiveMCPBench tasks only). */
  goldIncludingMissing?: string[];
  /** `false` for a step whose gold tool is missing from tools.json (it can never be hit). */
  reachable?: boolean;
}

interface RawTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

function benchTool(server: string, raw: RawTool): BenchTool {
  return {
    name: `${server}/${raw.name}`,
    server,
    category: server,
    originalName: raw.name,
    description: raw.description ?? '',
    parameters: raw.inputSchema ?? { type: 'object' },
  };
}

/**
 * Loads a tool corpus: a toolcorpus directory (one `tools/list` dump per file, server =
 * file stem) or LiveMCPBench's `tools.json` (server = the key under each entry's `tools`).
 */
export function loadBenchTools(path: string): BenchTool[] {
  if (statSync(path).isDirectory()) {
    const tools: BenchTool[] = [];
    for (const file of readdirSync(path).sort()) {
      if (!file.endsWith('.json') || file.startsWith('_')) continue;
      const dump = JSON.parse(readFileSync(join(path, file), 'utf8')) as { tools?: RawTool[] };
      const server = basename(file, '.json');
      for (const raw of dump.tools ?? []) tools.push(benchTool(server, raw));
    }
    return tools;
  }
  const entries = JSON.parse(readFileSync(path, 'utf8')) as {
    tools: Record<string, { server_name?: string; tools: RawTool[] }>;
  }[];
  const tools: BenchTool[] = [];
  for (const entry of entries) {
    for (const [server, group] of Object.entries(entry.tools)) {
      for (const raw of group.tools) tools.push(benchTool(server, raw));
    }
  }
  return tools;
}

interface LiveTask {
  task_id: string;
  query: string;
  gold_tools: string[];
  gold_tools_in_corpus: string[];
  steps: string[];
}

/**
 * Loads queries: `queries-dev.jsonl`, or LiveMCPBench's `queries.json` which yields one
 * `task` query per task (the whole request against its in-corpus gold tools) and one `step`
 * query per step of the tasks whose steps and gold tools pair one to one.
 */
export function loadBenchQueries(path: string, corpusToolNames: ReadonlySet<string>): BenchQuery[] {
  const text = readFileSync(path, 'utf8');
  if (path.endsWith('.jsonl')) {
    return text
      .split('\n')
      .filter((line) => line.trim().length > 0)
      .map((line) => {
        const row = JSON.parse(line) as {
          id: string;
          query: string;
          gold: string[];
          alternatives?: string[];
          multi?: boolean;
          lang?: string;
        };
        return {
          id: row.id,
          query: row.query,
          kind: 'dev' as const,
          gold: row.gold,
          alternatives: row.alternatives ?? [],
          multi: row.multi ?? row.gold.length > 1,
          ...(row.lang === undefined ? {} : { lang: row.lang }),
        };
      });
  }
  const tasks = JSON.parse(text) as LiveTask[];
  const queries: BenchQuery[] = [];
  for (const task of tasks) {
    const gold = [...new Set(task.gold_tools_in_corpus)];
    if (gold.length > 0) {
      queries.push({
        id: task.task_id,
        query: task.query,
        kind: 'task',
        gold,
        goldIncludingMissing: [...new Set(task.gold_tools)],
        alternatives: [],
        multi: gold.length > 1,
      });
    }
    if (task.steps.length !== task.gold_tools.length) continue;
    task.steps.forEach((step, index) => {
      const tool = task.gold_tools[index]!;
      queries.push({
        ...(corpusToolNames.has(tool) ? {} : { reachable: false }),
        id: `${task.task_id}#step${index + 1}`,
        query: step,
        kind: 'step',
        gold: [tool],
        alternatives: [],
        multi: false,
      });
    });
  }
  return queries;
}
