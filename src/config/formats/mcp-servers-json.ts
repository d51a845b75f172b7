import { isPlainObject } from '../../json/is-plain-object.js';
import { configError } from '../config-error.js';
import type { ConfigReadContext } from '../config-read-context.js';
import type { McpToolsConfig, ServerConfig } from '../config-types.js';
import { ignoredKeyWarning } from '../ignored-key-warning.js';
import { normalizeServer } from '../normalize-server.js';
import { editorVariables } from './editor-variables.js';
import { stringifyValues } from './stringify-values.js';

/** The clients whose files hold a top-level `mcpServers` map. */
export type McpServersFlavor = 'claude-desktop' | 'claude-code' | 'cursor' | 'windsurf';

interface FlavorRules {
  /** What the client means by `type: "http"`. */
  httpType: 'http' | 'streamable-http';
  /** Whether `${workspaceFolder}` and `${userHome}` are defined. */
  editorVariables: boolean;
}

// Claude Code's "http" is Streamable HTTP only; Cursor and Windsurf probe both transports,
// which is what our `http` type means.
const flavors: Record<McpServersFlavor, FlavorRules> = {
  'claude-desktop': { httpType: 'http', editorVariables: false },
  'claude-code': { httpType: 'streamable-http', editorVariables: false },
  cursor: { httpType: 'http', editorVariables: true },
  windsurf: { httpType: 'http', editorVariables: false },
};

const typeAliases: Record<string, string> = {
  stdio: 'stdio',
  sse: 'sse',
  'streamable-http': 'streamable-http',
  streamableHttp: 'streamable-http',
  streamable_http: 'streamable-http',
};

const copiedKeys = ['command', 'args', 'env', 'cwd', 'headers', 'enabled'] as const;
const handledKeys = new Set<string>([...copiedKeys, 'type', 'url', 'serverUrl', 'disabled', 'disabledTools']);

/**
 * Reads the `{ "mcpServers": { … } }` files of Claude Desktop, Claude Code (`.mcp.json`), Cursor
 * (`.cursor/mcp.json`) and Windsurf (`mcp_config.json`). Lenient: keys we do not use are ignored
 * with a warning, since these files belong to other programs.
 */
export function readMcpServersJson(
  value: unknown,
  context: ConfigReadContext,
  flavor: McpServersFlavor,
): McpToolsConfig {
  if (!isPlainObject(value))
    throw configError({ file: context.file }, 'must be a JSON object with "mcpServers"');
  const entries = value.mcpServers ?? {};
  if (!isPlainObject(entries))
    throw configError({ file: context.file, field: 'mcpServers' }, 'must be an object');
  const rules = flavors[flavor];
  const variables = rules.editorVariables ? editorVariables(context) : undefined;
  const servers: Record<string, ServerConfig> = {};
  for (const [name, entry] of Object.entries(entries)) {
    if (!isPlainObject(entry)) throw configError({ file: context.file, server: name }, 'must be an object');
    const { mapped, fieldNames } = mapEntry(name, entry, context, rules);
    servers[name] = normalizeServer(name, mapped, context, {
      fieldNames,
      variables,
      basePath: ['mcpServers', name],
    });
  }
  return { servers };
}

function mapEntry(
  name: string,
  entry: Record<string, unknown>,
  context: ConfigReadContext,
  rules: FlavorRules,
): { mapped: Record<string, unknown>; fieldNames: Record<string, string> } {
  const mapped: Record<string, unknown> = {};
  const fieldNames: Record<string, string> = {};
  for (const key of copiedKeys) {
    if (entry[key] !== undefined) mapped[key] = key === 'env' ? stringifyValues(entry[key]) : entry[key];
  }
  if (entry.type !== undefined) {
    mapped.type = entry.type === 'http' ? rules.httpType : (typeAliases[String(entry.type)] ?? entry.type);
  }
  // Windsurf names the URL `serverUrl`; it also accepts `url`.
  const urlKey = entry.serverUrl !== undefined ? 'serverUrl' : 'url';
  if (entry[urlKey] !== undefined) {
    mapped.url = entry[urlKey];
    if (urlKey === 'serverUrl') fieldNames.url = 'serverUrl';
  }
  if (entry.disabled !== undefined) {
    mapped.enabled = typeof entry.disabled === 'boolean' ? !entry.disabled : entry.disabled;
    fieldNames.enabled = 'disabled';
  }
  if (entry.disabledTools !== undefined) {
    mapped.tools = { deny: entry.disabledTools };
    fieldNames.tools = 'disabledTools';
  }
  for (const key of Object.keys(entry)) {
    if (handledKeys.has(key)) continue;
    context.warn(ignoredKeyWarning({ file: context.file, server: name, field: key }, handledKeys));
  }
  return { mapped, fieldNames };
}
