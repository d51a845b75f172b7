// A host process for the isolation tests: loads the plugins named on the command line, calls
// every tool once, lets stray failures surface, and prints what it saw as one JSON line.
// Run as `node --import tsx test/plugins/fault-host.ts <spec>...`.

import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { loadOpenClawPlugins } from '../../src/plugins/load-openclaw-plugins.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const registry = new ToolRegistry();
const { plugins } = await loadOpenClawPlugins(process.argv.slice(2), registry, { logger: {} });
const atLoad = plugins.map((plugin) => ({ id: plugin.id, status: plugin.status, error: plugin.error }));
const answers: Record<string, string> = {};
for (const tool of await registry.resolveAll()) {
  const result = await tool.execute('fault-host', {});
  answers[tool.name] = result.content
    .map((block) => (block.type === 'text' ? block.text : block.type))
    .join('');
}
await pause(200);
const later = plugins.map((plugin) => ({ id: plugin.id, status: plugin.status, error: plugin.error }));
process.stdout.write(`${JSON.stringify({ atLoad, answers, later })}\n`);
