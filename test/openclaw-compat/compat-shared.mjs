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

/** Plugin config both hosts get (an xai key so its tools pass OpenClaw's availability check). */
export function pluginConfigFor(id) {
  return id === 'xai' ? { webSearch: { apiKey: 'xai-compat-key' } } : {};
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
