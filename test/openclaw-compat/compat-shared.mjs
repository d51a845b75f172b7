// What both sides of the OpenClaw compatibility check share: which plugins, which config,
// which calls, and how a call's outcome is recorded.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The bundled plugins in `<openclaw>/dist/extensions` whose manifest declares `contracts.tools`. */
export function bundledToolPlugins(openclawRoot) {
  const extensions = join(openclawRoot, 'dist', 'extensions');
  const plugins = [];
  for (const name of readdirSync(extensions).sort()) {
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(join(extensions, name, 'openclaw.plugin.json'), 'utf8'));
    } catch {
      continue;
    }
    const tools = manifest.contracts?.tools ?? [];
    if (tools.length > 0)
      plugins.push({ id: manifest.id, dir: join(extensions, name), contractTools: tools });
  }
  return plugins;
}

/**
 * Plugin config both hosts get: an xai key (its tools pass OpenClaw's availability check)
 * and one 1Password slug (its broker, hence its tool, exists only with items configured).
 */
export function pluginConfigFor(id) {
  if (id === 'xai') return { webSearch: { apiKey: 'xai-compat-key' } };
  if (id === 'onepassword') return { vault: 'Compat', items: { 'compat-key': { item: 'Compat Item' } } };
  return {};
}

/** The host config both hosts get: every plugin enabled with its config, and one crabbox machine profile. */
export function hostConfigFor(plugins) {
  return {
    plugins: {
      entries: Object.fromEntries(
        plugins.map((plugin) => [plugin.id, { enabled: true, config: pluginConfigFor(plugin.id) }]),
      ),
    },
    cloudWorkers: { profiles: { compat: { provider: 'crabbox' } } },
  };
}

/**
 * The tool-factory context both hosts pass: a session, an owner as sender (memory-core's
 * `intent` needs one) and an xai model (xai's tools need one).
 */
export function factoryContext(workspaceDir) {
  return {
    workspaceDir,
    agentId: 'main',
    sessionKey: 'agent:main:main',
    sessionId: 'compat-session',
    senderIsOwner: true,
    activeModel: { provider: 'xai', id: 'grok-4' },
  };
}

/** One call per tool that changes nothing outside the scratch state directory. */
export const harmlessCalls = {
  memory_get: { path: 'MEMORY.md' },
  wiki_status: {},
  wiki_search: { query: 'compat' },
  workboard_list: {},
  workboard_boards: {},
  workboard_stats: {},
  talk_voice: { action: 'status' },
  file_fetch: {},
  canvas: { action: 'status' },
  'llm-task': {},
  node_inference: {},
  browser: { action: 'status' },
  onepassword: { action: 'list' },
  crabbox: { action: 'profiles' },
};

function textOf(result) {
  return (result?.content ?? [])
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join('\n');
}

/** A call's outcome: `ok` with its text, or `error` with its message. */
export function outcomeOf(result, error) {
  if (error !== undefined) {
    const message = error instanceof Error ? error.message : textOf(error) || String(error);
    return { kind: 'error', message: message.slice(0, 400) };
  }
  return { kind: 'ok', text: textOf(result).slice(0, 2000) };
}
