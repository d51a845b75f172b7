// Runs mcptools' loader (from dist/, built) over the bundled plugins of an installed
import { writeFileSync } from 'node:fs';
// `openclaw` package that declare tools, and prints what it registered as JSON.
import {
  bundledToolPlugins,
  factoryContext,
  harmlessCalls,
  hostConfigFor,
  outcomeOf,
  pluginConfigFor,
} from './compat-shared.mjs';

const [openclawRoot, mcptoolsDist, outputFile] = process.argv.slice(2);
const { ToolRegistry } = await import(`${mcptoolsDist}/index.js`);
const { loadOpenClawPlugins } = await import(`${mcptoolsDist}/plugins.js`);
const plugins = bundledToolPlugins(openclawRoot);
const report = {};
for (const plugin of plugins) {
  const registry = new ToolRegistry({ allow: ['*'] });
  const {
    plugins: [result],
  } = await loadOpenClawPlugins(
    [{ spec: plugin.dir, config: pluginConfigFor(plugin.id), allow: ['*'] }],
    registry,
    { logger: {}, config: hostConfigFor(plugins) },
  );
  const entry = {
    status: result.status,
    error: result.error,
    loadResultTools: result.tools,
    tools: {},
    calls: {},
  };
  if (result.status === 'loaded') {
    const tools = await registry.resolveAll(factoryContext(process.env.COMPAT_WORKSPACE));
    for (const tool of tools) entry.tools[tool.originalName ?? tool.name] = tool.parameters;
    for (const [name, params] of Object.entries(harmlessCalls)) {
      const tool = tools.find((candidate) => (candidate.originalName ?? candidate.name) === name);
      if (!tool) continue;
      try {
        const result = await tool.execute(`compat-${name}`, params);
        entry.calls[name] = result.isError ? outcomeOf(undefined, result) : outcomeOf(result);
      } catch (error) {
        entry.calls[name] = outcomeOf(undefined, error);
      }
    }
  }
  report[plugin.id] = entry;
}
writeFileSync(outputFile, `${JSON.stringify(report)}\n`);
process.exit(0);
