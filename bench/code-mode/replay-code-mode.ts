// What the sandbox itself costs, without I/O: every task's script run in the sandbox with its
// inner calls' answers replayed from memory (recorded once through call_tool over the stdio
// fixtures), against V8 running the same script over the same answers. Each script's CPU time
// until its answer, the CPU of the pause after it (freeing its runtime, making the spare), and
// the floor of a script of its own: making a runtime and context with the prelude, and running
// an empty script in it.
//   node --import tsx bench/code-mode/replay-code-mode.ts [--rounds=N] [--pause=MS]
import { DEFAULT_SCRIPT_LIMITS } from '../../src/router/code-mode/script-limits.js';
import { runSandboxedScript, type ScriptHost } from '../../src/router/code-mode/script-sandbox.js';
import { toolAnswer } from '../../src/router/code-mode/tool-answer.js';
import { createRouterTools } from '../../src/router/create-router-tools.js';
import type { ToolResult } from '../../src/tool/tool.js';
import { CODE_MODE_TASKS } from './code-mode-tasks.js';
import { cpuSince, pause } from './model-turn.js';
import { loadTaskServers } from './task-servers.js';

const rounds = Number(process.argv.find((arg) => arg.startsWith('--rounds='))?.slice(9) ?? 20);
const { registry, hub } = await loadTaskServers();
const callTool = createRouterTools(hub, registry).find((tool) => tool.name === 'call_tool')!;
const tools = registry
  .list()
  .map((entry) => registry.get(entry.name)!)
  .filter((tool) => tool.server !== undefined && tool.originalName !== undefined);
const names = tools.map((tool) => ({
  name: tool.name,
  server: tool.server,
  originalName: tool.originalName,
}));

/** Each call's result by its name and arguments, recorded once through call_tool. */
const recorded = new Map<string, ToolResult>();
const replayed = (payload: unknown) => structuredClone(recorded.get(JSON.stringify(payload))!);
const recording: ScriptHost = {
  tools: names,
  async request(_op, payload) {
    const key = JSON.stringify(payload);
    if (!recorded.has(key))
      recorded.set(key, await callTool.execute('record', payload as Record<string, unknown>));
    return toolAnswer(replayed(payload));
  },
};
for (const task of CODE_MODE_TASKS) await runSandboxedScript(task.script, recording, DEFAULT_SCRIPT_LIMITS);
await hub.close();
const replaying: ScriptHost = {
  tools: names,
  request: async (_op, payload) => toolAnswer(replayed(payload)),
};

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (tools: unknown) => Promise<unknown>;
const v8Tools: Record<string, Record<string, (args?: unknown) => Promise<unknown>>> = {};
for (const tool of tools) {
  const server = v8Tools[tool.server!] ?? {};
  v8Tools[tool.server!] = server;
  server[tool.originalName!] = async (args) =>
    (toolAnswer(replayed({ name: tool.name, arguments: args ?? {} })) as { value: unknown }).value;
}

let sandboxCpu = 0;
let pauseCpu = 0;
let v8Cpu = 0;
let emptyCpu = 0;
let emptyPauseCpu = 0;
for (let round = 0; round < rounds + 2; round++)
  for (const task of CODE_MODE_TASKS) {
    let cpu = process.cpuUsage();
    const outcome = await runSandboxedScript(task.script, replaying, DEFAULT_SCRIPT_LIMITS);
    const sandbox = cpuSince(cpu);
    if (!outcome.ok) throw new Error(`${task.id}: ${JSON.stringify(outcome.error)}`);
    cpu = process.cpuUsage();
    await pause();
    const after = cpuSince(cpu);
    cpu = process.cpuUsage();
    await new AsyncFunction('tools', task.script)(v8Tools);
    const v8 = cpuSince(cpu);
    cpu = process.cpuUsage();
    await runSandboxedScript('return 1', replaying, DEFAULT_SCRIPT_LIMITS);
    const empty = cpuSince(cpu);
    cpu = process.cpuUsage();
    await pause();
    const emptyAfter = cpuSince(cpu);
    // The first two rounds warm up (the WebAssembly instance, V8's optimising compiler).
    if (round < 2) continue;
    sandboxCpu += sandbox;
    pauseCpu += after;
    v8Cpu += v8;
    emptyCpu += empty;
    emptyPauseCpu += emptyAfter;
  }
const scripts = rounds * CODE_MODE_TASKS.length;
const per = (total: number) => (total / scripts).toFixed(3);
console.log(
  `${scripts} scripts, answers replayed from memory, CPU per script: in the sandbox ${per(sandboxCpu)} ms until the answer + ${per(pauseCpu)} ms in the pause after it; the same script in V8 ${per(v8Cpu)} ms; an empty script (return 1) ${per(emptyCpu)} ms + ${per(emptyPauseCpu)} ms in the pause after it`,
);
