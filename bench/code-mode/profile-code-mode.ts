// A CPU profile of run_script over the code-mode task suite, without the direct side and
// without start-up (the profiler runs from after one warm-up round):
//   node --import tsx bench/code-mode/profile-code-mode.ts [--rounds=N] [--out=FILE.cpuprofile]
// Each round runs every task's script once through run_script, with the same pause after each
// as the bench leaves (`--pause=MS`, default 50: run_script frees a script's sandbox and makes
// the next one's in it). Open the profile in Chrome's DevTools (Performance) or any
// .cpuprofile viewer.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRouterTools } from '../../src/router/create-router-tools.js';
import { CODE_MODE_TASKS } from './code-mode-tasks.js';
import { cpuSince, pause } from './model-turn.js';
import { loadTaskServers } from './task-servers.js';

const rounds = Number(process.argv.find((arg) => arg.startsWith('--rounds='))?.slice(9) ?? 10);
const { registry, hub } = await loadTaskServers();
const runScript = createRouterTools(hub, registry).find((tool) => tool.name === 'run_script')!;
for (const task of CODE_MODE_TASKS) await runScript.execute(task.id, { script: task.script });
const out = process.argv.find((arg) => arg.startsWith('--out='))?.slice(6);
const session = new Session();
if (out !== undefined) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
let wall = 0;
let cpuUntilAnswer = 0;
let cpuInPause = 0;
await pause();
for (let round = 0; round < rounds; round++)
  for (const task of CODE_MODE_TASKS) {
    let cpu = process.cpuUsage();
    const started = performance.now();
    const result = await runScript.execute(task.id, { script: task.script });
    wall += performance.now() - started;
    cpuUntilAnswer += cpuSince(cpu);
    if (result.isError) throw new Error(`${task.id}: ${JSON.stringify(result.content)}`);
    cpu = process.cpuUsage();
    await pause();
    cpuInPause += cpuSince(cpu);
  }
const scripts = rounds * CODE_MODE_TASKS.length;
console.log(
  `${scripts} scripts: ${wall.toFixed(0)} ms wall until their answers, CPU ${cpuUntilAnswer.toFixed(0)} ms until the answers and ${cpuInPause.toFixed(0)} ms in the pauses after them (${(cpuUntilAnswer / scripts).toFixed(2)} + ${(cpuInPause / scripts).toFixed(2)} ms a script)`,
);
if (out !== undefined) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(out, JSON.stringify(profile));
  console.log(`profile: ${out}`);
}
await hub.close();
