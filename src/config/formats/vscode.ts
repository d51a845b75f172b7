import { isPlainObject } from '../../json/is-plain-object.js';
import { configError, describeConfigLocation } from '../config-error.js';
import type { ConfigReadContext } from '../config-read-context.js';
import type { McpToolsConfig, ServerConfig } from '../config-types.js';
import { ignoredKeyWarning } from '../ignored-key-warning.js';
import { normalizeServer } from '../normalize-server.js';
import { editorVariables } from './editor-variables.js';
import { stringifyValues } from './stringify-values.js';

const copiedKeys = ['type', 'command', 'args', 'env', 'cwd', 'url', 'headers'] as const;

/**
 * Reads VS Code's `.vscode/mcp.json` (`servers`, `type: stdio | http | sse`, `inputs`). Inputs are
 * prompted for by VS Code and cannot be resolved here: `${input:…}` placeholders are left as they
 * are with a warning. Keys we do not use (`envFile`, `dev`) are ignored with a warning.
 */
export function readVsCodeJson(value: unknown, context: ConfigReadContext): McpToolsConfig {
  if (!isPlainObject(value))
    throw configError({ file: context.file }, 'must be a JSON object with "servers"');
  const entries = value.servers ?? {};
  if (!isPlainObject(entries))
    throw configError({ file: context.file, field: 'servers' }, 'must be an object');
  if (value.inputs !== undefined && !Array.isArray(value.inputs)) {
    context.warn(`${describeConfigLocation({ file: context.file, field: 'inputs' })}: not an array, ignored`);
  }
  const variables = editorVariables(context);
  const servers: Record<string, ServerConfig> = {};
  for (const [name, entry] of Object.entries(entries)) {
    if (!isPlainObject(entry)) throw configError({ file: context.file, server: name }, 'must be an object');
    const mapped: Record<string, unknown> = {};
    for (const key of copiedKeys) {
      if (entry[key] !== undefined) mapped[key] = key === 'env' ? stringifyValues(entry[key]) : entry[key];
    }
    for (const key of Object.keys(entry)) {
      if ((copiedKeys as readonly string[]).includes(key)) continue;
      context.warn(ignoredKeyWarning({ file: context.file, server: name, field: key }, copiedKeys));
    }
    // VS Code's "http" tries Streamable HTTP and falls back to SSE, exactly our `http`.
    servers[name] = normalizeServer(name, mapped, context, { variables, basePath: ['servers', name] });
  }
  return { servers };
}
