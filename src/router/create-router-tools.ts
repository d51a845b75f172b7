import type { McpToolHub } from '../mcp/hub-types.js';
import type { ToolRegistry } from '../pipeline/tool-registry.js';
import { namespacedName, uniqueName } from '../registry/tool-name.js';
import type { Tool } from '../tool/tool.js';
import { createCallToolTool, createRouteToolCall } from './call-tool-tool.js';
import { createDescribeToolsTool } from './code-mode/describe-tools-tool.js';
import { createRunScriptTool } from './code-mode/run-script-tool.js';
import { createGetPromptTool } from './get-prompt-tool.js';
import { createListPromptsTool } from './list-prompts-tool.js';
import { createListResourcesTool } from './list-resources-tool.js';
import { createMcpAuthTool } from './mcp-auth-tool.js';
import { createReadResourceTool } from './read-resource-tool.js';
import {
  type ResolvedRouterOptions,
  type RouterToolsOptions,
  resolveRouterOptions,
} from './router-options.js';
import { activeServers } from './server-availability.js';
import { createToolIndexTool, type ToolIndexToolOptions } from './tool-index-tool.js';

/** The per-server surface: `mcp__<server>__list_resources` and `mcp__<server>__read_resource`. */
function perServerTools(hub: McpToolHub, settings: ResolvedRouterOptions, taken: Set<string>): Tool[] {
  const separator = settings.naming.separator ?? '__';
  const maxLength = settings.naming.maxLength ?? 64;
  const tools: Tool[] = [];
  const nameFor = (server: string, action: string) => {
    const name = uniqueName(
      namespacedName(`mcp${separator}${server}`, action, settings.naming),
      `${server}\u0000${action}`,
      (candidate) => taken.has(candidate),
      maxLength,
    );
    taken.add(name);
    return name;
  };
  for (const server of activeServers(hub)) {
    tools.push(createListResourcesTool(hub, settings, { name: nameFor(server, 'list_resources'), server }));
    tools.push(createReadResourceTool(hub, settings, { name: nameFor(server, 'read_resource'), server }));
  }
  return tools;
}

/**
 * The router meta-tools over an MCP hub and a registry: `list_mcp_resources`,
 * `read_mcp_resource`, `list_mcp_prompts`, `get_mcp_prompt`, `tool_index` and `call_tool`
 * (names configurable), `run_script` and `describe_tools` (code mode, unless `codeMode: false`),
 * plus per-server resource tools when `perServerResourceTools` is set, and `mcp_auth` when a
 * server uses OAuth. Every tool has `source: 'router'`; all are read-only except `call_tool`,
 * `run_script` and `mcp_auth`.
 *
 * @example
 * const hub = await loadMcpServers(config, registry);
 * const tools = createRouterTools(hub, registry, { planMode: () => agent.planning });
 */
export function createRouterTools(
  hub: McpToolHub,
  registry: ToolRegistry,
  options: RouterToolsOptions = {},
): Tool[] {
  const settings = resolveRouterOptions(options);
  const { names } = settings;
  // Shared with call_tool by reference: it refuses every router tool, per-server ones included.
  const routerNames = new Set(Object.values(names));
  const toolIndexOptions: ToolIndexToolOptions = {
    name: names.toolIndex,
    format: settings.format,
    planMode: settings.planMode,
    senderIsOwner: settings.senderIsOwner,
    ...(settings.toolVisible === undefined ? {} : { toolVisible: settings.toolVisible }),
    serverState: (server) => hub.status(server)?.state,
    context: settings.context,
    ...(settings.maxResponseBytes === undefined ? {} : { maxResponseBytes: settings.maxResponseBytes }),
    ...(settings.semanticSearch === undefined ? {} : { semantic: settings.semanticSearch }),
  };
  const toolIndex = createToolIndexTool(registry, toolIndexOptions);
  // One call path for call_tool and every inner call of a script.
  const route = createRouteToolCall(
    registry,
    settings,
    routerNames,
    (target) => hub.toolRefusal?.(target)?.message,
  );
  const tools: Tool[] = [
    createListResourcesTool(hub, settings, { name: names.listResources }),
    createReadResourceTool(hub, settings, { name: names.readResource }),
    createListPromptsTool(hub, settings, names.listPrompts),
    createGetPromptTool(hub, settings, names.getPrompt),
    toolIndex,
    createCallToolTool(registry, settings, routerNames, route),
  ];
  if (settings.codeMode !== undefined) {
    const describeTools = createDescribeToolsTool(registry, settings, routerNames, names.describeTools);
    tools.push(
      createRunScriptTool({
        registry,
        settings,
        routerNames,
        route,
        toolIndex,
        describeTools,
        limits: settings.codeMode,
      }),
      describeTools,
    );
  }
  // McpAuth only where there is something to authorize.
  if ((hub.oauthServers?.() ?? []).length > 0) tools.push(createMcpAuthTool(hub, settings, names.mcpAuth));
  if (settings.perServerResourceTools) tools.push(...perServerTools(hub, settings, routerNames));
  return tools;
}
