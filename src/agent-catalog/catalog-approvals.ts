import type { ToolMiddleware } from '../pipeline/tool-call-hooks.js';

/**
 * The pipeline middleware that asks a person before each call of `find_server` (its query
 * leaves this machine) and `add_server` (it changes what the gateway runs). Only `allow-once`
 * or `deny`: a remembered `allow-always` would let a model add servers unasked from then on.
 */
export function catalogApprovals(names: { findServer: string; addServer: string }): ToolMiddleware {
  return {
    name: 'catalog',
    matcher: [names.findServer, names.addServer],
    beforeToolCall: (event) => {
      const adding = event.toolName.toLowerCase() === names.addServer.toLowerCase();
      const { name, version, query } = event.params;
      return {
        requireApproval: adding
          ? {
              title: 'Add an MCP server',
              description: `Add ${String(name)}${typeof version === 'string' ? `@${version}` : ' (latest version)'} from the registry to this gateway. Its tools stay held until an operator approves them.`,
              severity: 'critical',
              allowedDecisions: ['allow-once', 'deny'],
            }
          : {
              title: 'Search the MCP server registry',
              description: `Send the query "${String(query)}" to the configured registries.`,
              severity: 'info',
              allowedDecisions: ['allow-once', 'deny'],
            },
      };
    },
  };
}
