// Loads two fixture plugins through mcptools (dist/) while the real `openclaw` is resolvable
// (NODE_PATH, set by compat.test.mjs): their `openclaw/plugin-sdk/*` imports must come from it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [mcptoolsDist, outputFile] = process.argv.slice(2);
const { ToolRegistry } = await import(`${mcptoolsDist}/index.js`);
const { loadOpenClawPlugins } = await import(`${mcptoolsDist}/plugins.js`);
const { pluginSdkAliases } = await import(`${mcptoolsDist}/plugins/import-plugin-entry.js`);
const fixtures = fileURLToPath(new URL('../fixtures/plugins/', import.meta.url));
const registry = new ToolRegistry();
const { plugins } = await loadOpenClawPlugins(
  [join(fixtures, 'v2-plugin'), join(fixtures, 'bad-import-plugin.mjs')],
  registry,
  { logger: {} },
);
const [tool] = await registry.resolveAll({ agentId: 'compat-agent' });
const answer = tool ? (await tool.execute('compat', {})).content : [];
writeFileSync(
  outputFile,
  JSON.stringify({
    pluginEntry: pluginSdkAliases()['openclaw/plugin-sdk/plugin-entry'],
    plugins: plugins.map((plugin) => ({ id: plugin.id, status: plugin.status, error: plugin.error })),
    answer,
  }),
);
process.exit(0);
