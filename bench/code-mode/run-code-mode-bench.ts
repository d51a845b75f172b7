// `npm run bench code-mode`: the code-mode task suite, measured. For each task, two scripted
// transcripts of what a model's context holds, counted with o200k_base (gpt-tokenizer):
//   direct    — the definitions of the tools it needs, then each call's arguments and full result, in order;
//   code mode — run_script's definition, the describe_tools call and its TypeScript declarations,
//               the script, and its output.
// Then the time of each script through run_script against the same calls made directly through
// call_tool (the direct path of the profiles that offer run_script), in interleaved rounds, and
// the CPU time of each side. A model's turn (`--pause=MS`, default 50; a real one is seconds)
// comes where a model takes one: a direct-calling model takes one after each answer before its
// next call (the calls it makes at once share one), a code-mode model one to write the script;
// both sides get one after their last answer. The time in those turns is not a side's time; the
// CPU spent in them is counted beside its CPU until the answer. `--direct-turns=0` makes the
// direct side's calls back to back instead (no turn between them, as no model can). And the
// sandbox's cost per inner call (a script of N calls against N direct calls back to back, per round).
//   node --import tsx bench/code-mode/run-code-mode-bench.ts [--rounds=N] [--pause=MS] [--direct-turns=0]
import { isDeepStrictEqual } from 'node:util';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { createRouterTools } from '../../src/router/create-router-tools.js';
import type { Tool, ToolResult } from '../../src/tool/tool.js';
import { CODE_MODE_TASKS, type CodeModeTask } from './code-mode-tasks.js';
import { cpuSince, pause, pauseMs } from './model-turn.js';
import { loadTaskServers } from './task-servers.js';

// The shared table and result-file helpers are plain JavaScript (no declarations to import by).
const report: string = '../lib/report.mjs';
const { printTable, writeResult } = (await import(report)) as {
  printTable(title: string, header: string[], rows: (string | number)[][]): void;
  writeResult(name: string, data: Record<string, unknown>): string;
};

const rounds = Number(process.argv.find((arg) => arg.startsWith('--rounds='))?.slice(9) ?? 5);
const directTurns = process.argv.find((arg) => arg.startsWith('--direct-turns='))?.slice(15) !== '0';

const { registry, hub } = await loadTaskServers();
const router = createRouterTools(hub, registry);
const byName = (name: string) => router.find((tool) => tool.name === name)!;
const runScript = byName('run_script');
const describeTools = byName('describe_tools');
const callTool = byName('call_tool');

const definition = (tool: Tool) =>
  JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.parameters });
const textOf = (result: ToolResult) =>
  result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
const median = (values: number[]) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (tools: unknown) => Promise<unknown>;

/** What a script's call returns, as run_script gives it (structured content, or parsed JSON text). */
function answerOf(result: ToolResult): unknown {
  if (result.isError) throw new Error(textOf(result));
  if (result.structuredContent !== undefined) return result.structuredContent;
  const text = textOf(result);
  return text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text;
}

/**
 * The task's calls made directly, each through `call_tool` (the one call path a script's inner
 * calls take too, in the profiles that offer `run_script`), recorded in order: the script's own
 * logic decides which, one after another where it awaits each and at once where it awaits them
 * together, so both sides make the same calls the same way. With `turns`, a model's turn comes
 * before each call made after an answer (calls made at once share one); `ms` leaves the turns
 * out, and `turnCpu` is the CPU spent in them.
 */
async function direct(task: CodeModeTask, turns = false) {
  const calls: { name: string; arguments: unknown; result: string }[] = [];
  let answered = false;
  let turn: Promise<void> | undefined;
  let turnMs = 0;
  let turnCpu = 0;
  const modelTurn = async () => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await pause();
    turnMs += performance.now() - started;
    turnCpu += cpuSince(cpu);
    answered = false;
    turn = undefined;
  };
  const call = async (name: string, args: Record<string, unknown>) => {
    if (turns && answered) {
      turn ??= modelTurn();
      await turn;
    }
    const result = await callTool.execute(`direct-${calls.length}`, { name, arguments: args });
    answered = true;
    calls.push({ name, arguments: args, result: textOf(result) });
    return answerOf(result);
  };
  const tools: Record<string, unknown> = {};
  for (const entry of registry.list()) {
    const tool = registry.get(entry.name);
    if (tool?.server === undefined || tool.originalName === undefined) continue;
    const group = (tools[tool.server] ?? {}) as Record<string, unknown>;
    group[tool.originalName] = (args: Record<string, unknown>) => call(tool.name, args ?? {});
    tools[tool.server] = group;
  }
  const started = performance.now();
  const value = await new AsyncFunction('tools', task.script)(tools);
  return { value, calls, ms: performance.now() - started - turnMs, turnCpu };
}

const rows: (string | number)[][] = [];
const results = [];
let directTotal = 0;
let codeTotal = 0;
let allCorrect = true;
const transcripts = [];
for (const task of CODE_MODE_TASKS) {
  const definitions = task.tools.map((name) => definition(registry.get(name)!));
  const directRun = await direct(task);
  const directTranscript = [
    ...definitions,
    task.question,
    ...directRun.calls.flatMap((call) => [
      JSON.stringify({ name: call.name, arguments: call.arguments }),
      call.result,
    ]),
  ].join('\n');
  const describeArgs = { names: task.tools };
  const declarations = textOf(await describeTools.execute('describe', describeArgs));
  const scripted = await runScript.execute(task.id, { script: task.script });
  const codeTranscript = [
    definition(runScript),
    definition(describeTools),
    task.question,
    JSON.stringify({ name: 'describe_tools', arguments: describeArgs }),
    declarations,
    JSON.stringify({ name: 'run_script', arguments: { script: task.script } }),
    textOf(scripted),
  ].join('\n');
  const expected = task.expected();
  const correct =
    !scripted.isError &&
    isDeepStrictEqual((scripted.details as { value: unknown }).value, expected) &&
    isDeepStrictEqual(directRun.value, expected);
  allCorrect &&= correct;
  transcripts.push({ task, calls: directRun.calls.length, directTranscript, codeTranscript, correct });
}

// Times, interleaved so that a change of the machine's load falls on both sides alike: each
// round runs every task both ways, one side first in even rounds and the other in odd ones;
// per task the median over rounds, and per round the ratio of its two totals. The CPU time of
// this process is summed per side as well (the wall time of a loaded machine is mostly waiting):
// what a side did until its answer, and what it left for the pause after it (run_script frees a
// script's sandbox and makes the next one's once the answer has left), so that work done off
// a side's time is still counted as its cost.
const directTimes: number[][] = CODE_MODE_TASKS.map(() => []);
const scriptTimes: number[][] = CODE_MODE_TASKS.map(() => []);
const roundRatios: number[] = [];
let directCpu = 0;
let scriptCpu = 0;
let directAfterCpu = 0;
let scriptAfterCpu = 0;
const timed = async (run: () => Promise<{ ms?: number; turnCpu?: number }>) => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const { ms: own, turnCpu = 0 } = await run();
  const ms = own ?? performance.now() - started;
  const used = cpuSince(cpu) - turnCpu;
  const after = process.cpuUsage();
  await pause();
  return { ms, cpu: used, after: cpuSince(after) + turnCpu };
};
await pause();
for (let round = 0; round < rounds; round++) {
  let directRound = 0;
  let scriptRound = 0;
  for (const [index, task] of CODE_MODE_TASKS.entries()) {
    const sides = [
      async () => {
        const { ms, cpu, after } = await timed(() => direct(task, directTurns));
        directTimes[index]!.push(ms);
        directRound += ms;
        directCpu += cpu;
        directAfterCpu += after;
      },
      async () => {
        const { ms, cpu, after } = await timed(async () => {
          await runScript.execute(task.id, { script: task.script });
          return {};
        });
        scriptTimes[index]!.push(ms);
        scriptRound += ms;
        scriptCpu += cpu;
        scriptAfterCpu += after;
      },
    ];
    if (round % 2 === 1) sides.reverse();
    for (const side of sides) await side();
  }
  roundRatios.push(scriptRound / directRound);
}

let directTimeTotal = 0;
let scriptTimeTotal = 0;
for (const [index, { task, calls, directTranscript, codeTranscript, correct }] of transcripts.entries()) {
  const directMs = median(directTimes[index]!);
  const scriptMs = median(scriptTimes[index]!);
  const directTokens = countTokens(directTranscript);
  const codeTokens = countTokens(codeTranscript);
  directTotal += directTokens;
  codeTotal += codeTokens;
  directTimeTotal += directMs;
  scriptTimeTotal += scriptMs;
  results.push({
    task: task.id,
    calls,
    directTokens,
    codeTokens,
    share: codeTokens / directTokens,
    directMs,
    scriptMs,
    correct,
  });
  rows.push([
    task.id,
    calls,
    directTokens,
    codeTokens,
    `${((100 * codeTokens) / directTokens).toFixed(1)}%`,
    directMs.toFixed(1),
    scriptMs.toFixed(1),
    (scriptMs / directMs).toFixed(2),
    correct ? 'yes' : 'NO',
  ]);
}
rows.push([
  'total',
  results.reduce((sum, result) => sum + result.calls, 0),
  directTotal,
  codeTotal,
  `${((100 * codeTotal) / directTotal).toFixed(1)}%`,
  directTimeTotal.toFixed(1),
  scriptTimeTotal.toFixed(1),
  (scriptTimeTotal / directTimeTotal).toFixed(2),
  allCorrect ? 'all' : 'NO',
]);
printTable(
  `code mode vs direct calling, o200k_base tokens, times median of ${rounds} (ms)`,
  ['task', 'calls', 'direct tok', 'code tok', 'share', 'direct ms', 'script ms', 'ratio', 'answer'],
  rows,
);

// The sandbox's cost per inner call: a script of N sequential calls of a small tool against the
// same N calls made directly, per round; the p50 over rounds of (script - direct) / N.
const N = 200;
const perCall: number[] = [];
const customerIds = Array.from(
  { length: N },
  (_unused, index) => `C${String((index % 120) + 1).padStart(3, '0')}`,
);
const loop = `const ids = ${JSON.stringify(customerIds)};\nlet n = 0;\nfor (const id of ids) n += (await tools.crm.get_customer({ id })).id.length;\nreturn n;`;
for (let round = 0; round < Math.max(rounds, 5) + 1; round++) {
  let started = performance.now();
  for (const id of customerIds)
    answerOf(await callTool.execute('direct', { name: 'crm__get_customer', arguments: { id } }));
  const directMs = performance.now() - started;
  await pause();
  started = performance.now();
  await runScript.execute('loop', { script: loop });
  const scriptMs = performance.now() - started;
  await pause();
  if (round > 0) perCall.push((scriptMs - directMs) / N);
}
const overhead = median(perCall);
console.log(
  `\nsandbox cost per inner call (${N} calls of crm__get_customer over stdio, p50 of ${perCall.length} rounds): ${overhead.toFixed(3)} ms`,
);
const roundRatio = median(roundRatios);
console.log(
  `per-round ratios of the totals (script / direct): ${roundRatios.map((ratio) => ratio.toFixed(2)).join(' ')}; median ${roundRatio.toFixed(2)}`,
);
const directAll = directCpu + directAfterCpu;
const scriptAll = scriptCpu + scriptAfterCpu;
console.log(
  `CPU time of this process over ${rounds} rounds, until the answer: direct ${directCpu.toFixed(0)} ms, scripts ${scriptCpu.toFixed(0)} ms (${(scriptCpu / directCpu).toFixed(2)}×); with the model's turns (${directTurns ? 'one after each direct answer' : 'direct calls back to back'}, ${pauseMs} ms each): direct ${directAll.toFixed(0)} ms, scripts ${scriptAll.toFixed(0)} ms (${(scriptAll / directAll).toFixed(2)}×); per script ${(scriptAll / (rounds * CODE_MODE_TASKS.length)).toFixed(2)} ms against ${(directAll / (rounds * CODE_MODE_TASKS.length)).toFixed(2)} ms per task made directly`,
);
console.log(
  `total: code mode ${codeTotal} vs direct ${directTotal} tokens = ${((100 * codeTotal) / directTotal).toFixed(1)}% (goal ≤ 20%); time ${(scriptTimeTotal / directTimeTotal).toFixed(2)}× as sums of medians, ${roundRatio.toFixed(2)}× as the median round (goal ≤ 1.2×); answers ${allCorrect ? 'all as expected' : 'NOT all as expected'}`,
);
const file = writeResult('code-mode', {
  encoding: 'o200k_base',
  rounds,
  tasks: results,
  totals: {
    directTokens: directTotal,
    codeTokens: codeTotal,
    share: codeTotal / directTotal,
    directMs: directTimeTotal,
    scriptMs: scriptTimeTotal,
    roundRatios,
    directCpuMs: directCpu,
    scriptCpuMs: scriptCpu,
    directAfterCpuMs: directAfterCpu,
    scriptAfterCpuMs: scriptAfterCpu,
    pauseMs,
    directTurns,
  },
  perInnerCallMs: overhead,
  allCorrect,
});
console.log(`results: ${file}`);
await hub.close();
if (!allCorrect) process.exitCode = 1;
