// Runs OpenClaw's own resolver (`resolvePluginTools`, from the installed package's dist)
// over the same bundled plugins as mcptools-side.mjs and prints the same JSON shape.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  bundledToolPlugins,
  factoryContext,
  harmlessCalls,
  hostConfigFor,
  outcomeOf,
} from './compat-shared.mjs';

const [openclawRoot, outputFile] = process.argv.slice(2);
const dist = join(openclawRoot, 'dist');

/** The chunk that defines `resolvePluginTools`, and the name it is exported under. */
function findResolver() {
  for (const file of readdirSync(dist)) {
    if (!file.endsWith('.mjs')) continue;
    const text = readFileSync(join(dist, file), 'utf8');
    if (!text.includes('function resolvePluginTools(')) continue;
    const exported = /resolvePluginTools as (\w+)/.exec(text);
    if (exported) return { file: join(dist, file), name: exported[1] };
  }
  throw new Error(`resolvePluginTools not found in ${dist}`);
}

const located = findResolver();
const resolvePluginTools = (await import(pathToFileURL(located.file).href))[located.name];
const plugins = bundledToolPlugins(openclawRoot);
const config = hostConfigFor(plugins);
// The same config as OpenClaw's own config file, so that `runtime.config.current()` sees it too.
mkdirSync(join(homedir(), '.openclaw'), { recursive: true });
writeFileSync(join(homedir(), '.openclaw', 'openclaw.json'), `${JSON.stringify(config, null, 2)}\n`);
const tools = resolvePluginTools({
  context: { config, ...factoryContext(process.env.COMPAT_WORKSPACE) },
  toolAllowlist: ['group:plugins'],
  env: process.env,
  // The caller admits this request, as a gateway run would (version 2 factories check it).
  assertInvocationCurrent: () => undefined,
});
const report = {};
for (const plugin of plugins) report[plugin.id] = { status: 'loaded', tools: {}, calls: {} };
const owners = new Map(plugins.flatMap((plugin) => plugin.contractTools.map((name) => [name, plugin.id])));
for (const tool of tools) {
  const entry = report[owners.get(tool.name)];
  if (!entry) continue;
  // A plain JSON copy: TypeBox schemas carry symbol keys that JSON drops, as mcptools does.
  entry.tools[tool.name] = JSON.parse(JSON.stringify(tool.parameters));
  if (!(tool.name in harmlessCalls)) continue;
  try {
    entry.calls[tool.name] = outcomeOf(await tool.execute(`compat-${tool.name}`, harmlessCalls[tool.name]));
  } catch (error) {
    entry.calls[tool.name] = outcomeOf(undefined, error);
  }
}
writeFileSync(outputFile, `${JSON.stringify(report)}\n`);
process.exit(0);
