import picomatch from 'picomatch';
import type { PolicyMatch } from '../config/policies-schema.js';
import type { ToolHookContext } from '../pipeline/tool-call-hooks.js';

/** What a policy rule is matched against: the exposed name, the server, the origin name and hints. */
export type PolicyTarget = Pick<ToolHookContext, 'toolName' | 'server' | 'originalName' | 'annotations'>;

/**
 * Compiles a rule's `match` into a predicate: every field given must match. `tools` globs see
 * the exposed name and `server/originalName`; `servers` globs see the server (an MCP server's
 * name or a plugin's id); `annotations` names hints that must be `true`.
 */
export function compilePolicyMatch(match: PolicyMatch | undefined): (target: PolicyTarget) => boolean {
  if (match === undefined) return () => true;
  const options = { dot: true };
  const tools = match.tools ? picomatch(match.tools, options) : undefined;
  const servers = match.servers ? picomatch(match.servers, options) : undefined;
  const hints = match.annotations;
  return (target) => {
    if (tools) {
      const origin =
        target.server !== undefined && target.originalName !== undefined
          ? `${target.server}/${target.originalName}`
          : undefined;
      if (!tools(target.toolName) && !(origin !== undefined && tools(origin))) return false;
    }
    if (servers && !(target.server !== undefined && servers(target.server))) return false;
    if (hints && !hints.every((hint) => target.annotations?.[hint] === true)) return false;
    return true;
  };
}
