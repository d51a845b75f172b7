// A CPU profile of run_script over the code-mode task suite, without the direct side and
// without start-up (the profiler runs from after one warm-up round):
//   node --import tsx bench/code-mode/profile-code-mode.ts [--rounds=N] [--out=FILE.cpuprofile]
// Each round runs every task's script once through run_script. Open the profile in Chrome's
// DevTools (Performance) or any .cpuprofile viewer.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadMCPServers } from '../../src/mcp/load-mcp-servers.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { createRouterTools } from '../../src/router/create-router-tools.js';
import { stdioFixture } from '../../test/mcp/hub-test-helpers.js';
import { CODE_MODE_TASKS } from './code-mode-tasks.js';

const rounds = Number(process.argv.find((arg) => arg.startsWith('--rounds='))?.slice(9) ?? 10);
const registry = new ToolRegistry();
const provider = await loadMCPServers(
  {
    servers: {
      issues: stdioFixture('business', ['--dataset', 'issues']),
      crm: stdioFixture('business', ['--dataset', 'crm']),
      billing: stdioFixture('business', ['--dataset', 'billing']),
    },
  },
  registry,
);
const runScript = createRouterTools(provider, registry).find((tool) => tool.name === 'run_script')!;
for (const task of CODE_MODE_TASKS) await runScript.execute(task.id, { script: task.script });
const out = process.argv.find((arg) => arg.startsWith('--out='))?.slice(6);
const session = new Session();
if (out !== undefined) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
const cpu = process.cpuUsage();
const started = performance.now();
for (let round = 0; round < rounds; round++)
  for (const task of CODE_MODE_TASKS) {
    const result = await runScript.execute(task.id, { script: task.script });
    if (result.isError) throw new Error(`${task.id}: ${JSON.stringify(result.content)}`);
  }
const used = process.cpuUsage(cpu);
console.log(
  `${rounds} rounds: ${(performance.now() - started).toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU`,
);
if (out !== undefined) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(out, JSON.stringify(profile));
  console.log(`profile: ${out}`);
}
await provider.close();
