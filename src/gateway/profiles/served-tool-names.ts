import {
  legalizeName,
  namespacedName,
  sanitizeNamePart,
  serverNamePart,
  uniqueName,
} from '../../registry/tool-name.js';
import type { Tool } from '../../tool/tool.js';

/**
 * The default longest tool name a gateway serves. Hosts put their own prefix before the names
 * they get from an MCP server and hold the whole to a limit; with the entry name `mcptools`:
 *
 * | host | name the model gets | limit | room for our name |
 * |---|---|---|---|
 * | Claude Code | `mcp__mcptools__<name>` (15 + n) | 64 | 49 |
 * | Codex | `mcp__mcptools__<name>` (15 + n) | 64 | 49 |
 * | Gemini CLI | `mcp_mcptools_<name>` (13 + n) | 63 | 50 |
 * | OpenClaw | `mcptools__<name>` (10 + n) | 64 | 54 |
 *
 * 48 leaves every one of them room, and one character more for an entry name of 9 (docs/gateway-resources.md).
 */
export const DEFAULT_SERVED_NAME_LENGTH = 48;

/** How a profile names the tools it serves. */
export interface ServedNaming {
  /** Longest served name. */
  maxLength: number;
  /** Between the server part and the tool part (the namespace separator). */
  separator: string;
  /** The prefix of `server`'s tools in the registry (its configured `prefix`, else its name). */
  prefixOf(server: string): string;
  /** The registry's own budget (`namespace.maxLength`, default 64): how it built the names it gave. */
  registryMaxLength: number;
}

/**
 * `tools` under names at most `naming.maxLength` long. An MCP tool is named from its server's
 * prefix and its original name with the rule the registry uses (`namespacedName`, so its
 * registry name when that fits and the registry used the same separator): every tool of a
 * server shares one prefix, which depends on the server alone. Any other tool (an MCP tool an
 * override renamed included) keeps its name
 * when it fits, else is cut with a hash (`legalizeName`), and is named before the MCP tools, so
 * a native tool's name never moves for an upstream's. Names stay unique (`uniqueName`). Served
 * tools are copies: the registry's tools keep their names.
 */
export function servedUnder(tools: readonly Tool[], naming: ServedNaming): Tool[] {
  const chosen = new Set<string>();
  const taken = (candidate: string) => chosen.has(candidate);
  // An MCP tool named by the registry's rule (not renamed by a `policies.overrides` entry).
  const isMcp = (tool: Tool) =>
    tool.source === 'mcp' &&
    tool.server !== undefined &&
    tool.originalName !== undefined &&
    tool.name.startsWith(
      `${serverNamePart(naming.prefixOf(tool.server), naming.registryMaxLength)}${sanitizeNamePart(naming.separator)}`,
    );
  const names = new Map<Tool, string>();
  for (const tool of tools) {
    if (isMcp(tool)) continue;
    const name = uniqueName(legalizeName(tool.name, naming.maxLength), tool.name, taken, naming.maxLength);
    chosen.add(name);
    names.set(tool, name);
  }
  for (const tool of tools) {
    if (!isMcp(tool)) continue;
    const base = namespacedName(naming.prefixOf(tool.server!), tool.originalName!, {
      separator: naming.separator,
      maxLength: naming.maxLength,
    });
    const name = uniqueName(base, `${tool.server}\u0000${tool.originalName}`, taken, naming.maxLength);
    chosen.add(name);
    names.set(tool, name);
  }
  return tools.map((tool) => {
    const name = names.get(tool)!;
    return name === tool.name ? tool : { ...tool, name };
  });
}
