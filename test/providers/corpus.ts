import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { namespacedName } from '../../src/registry/tool-name.js';
import { textResult } from '../../src/tool/result.js';
import type { JsonSchemaObject, Tool } from '../../src/tool/tool.js';

/** The benchmark data in the repository (`bench/data`, see its README). */
const BENCH = fileURLToPath(new URL('../../bench/data/', import.meta.url));

interface RawTool {
  name: string;
  description?: string;
  inputSchema: JsonSchemaObject;
}

function toTool(server: string, raw: RawTool): Tool {
  return {
    name: namespacedName(server, raw.name),
    originalName: raw.name,
    server,
    source: 'mcp',
    description: raw.description ?? '',
    parameters: raw.inputSchema,
    execute: async () => textResult('ok'),
  };
}

/** The 979 real MCP tools of the benchmark corpus, as registry-named {@link Tool}s. */
export function loadCorpusTools(): Tool[] {
  const tools: Tool[] = [];
  const dir = join(BENCH, 'toolcorpus');
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.json') || file.startsWith('_')) continue;
    const data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { tools: RawTool[] };
    const server = file.replace(/\.json$/, '');
    for (const raw of data.tools) tools.push(toTool(server, raw));
  }
  const live = JSON.parse(readFileSync(join(BENCH, 'livemcpbench', 'tools.json'), 'utf8')) as Array<{
    tools: Record<string, { tools: RawTool[] }>;
  }>;
  for (const entry of live) {
    for (const [server, body] of Object.entries(entry.tools)) {
      for (const raw of body.tools) tools.push(toTool(server, raw));
    }
  }
  return tools;
}
