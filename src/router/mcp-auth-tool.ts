import type { McpToolHub } from '../mcp/hub-types.js';
import type { CallContext } from '../tool/call-context.js';
import type { JsonSchemaObject, Tool } from '../tool/tool.js';
import { defineRouterTool } from './define-router-tool.js';
import { classifyRouterError, routerError } from './error-taxonomy.js';
import type { ResolvedRouterOptions } from './router-options.js';
import { errorOutcome, type RouterOutcome } from './router-result.js';

const parameters: JsonSchemaObject = {
  type: 'object',
  properties: {
    server: { type: 'string', description: 'The server to authorize; omit to list which servers need it' },
  },
};

/**
 * `mcp_auth { server? }` (McpAuth): starts OAuth authorization of a server that
 * needs it and returns the URL for the person to open; a later call reports `authorized` once
 * the sign-in completed and the server reconnected. Other tools keep working meanwhile. Not
 * read-only (it changes stored credentials), so plan mode hides it.
 */
export function createMcpAuthTool(base: McpToolHub, settings: ResolvedRouterOptions, name: string): Tool {
  const describe = async (hub: McpToolHub, call: CallContext, server: string) => {
    const status = hub.status(server);
    const pending = hub.pendingAuthorization?.(server, call);
    // A server each gateway caller signs in to: this caller's own sign-in, not the shared state.
    const own = await hub.callerSignIn?.(server, call);
    return {
      server,
      state: status?.state ?? 'unknown',
      status:
        own ??
        (pending ? 'pending' : status?.state === 'auth_required' ? 'needs_authorization' : 'authorized'),
      ...(pending ? { url: pending } : {}),
      ...(own === undefined ? {} : { perUser: true }),
    };
  };
  const run = async (params: Record<string, unknown>, call: CallContext): Promise<RouterOutcome> => {
    const hub = settings.view(base, call.caller);
    const oauthServers = () => hub.oauthServers?.() ?? [];
    const server = params.server as string | undefined;
    if (server === undefined) {
      const servers = await Promise.all(oauthServers().map((each) => describe(hub, call, each)));
      const waiting = servers.filter((entry) => entry.status !== 'authorized').length;
      return {
        state: 'success',
        summary: `oauth: ${servers.length} server(s), ${waiting} need authorization`,
        payload: { servers },
      };
    }
    if (!oauthServers().includes(server)) {
      const known = oauthServers();
      return errorOutcome(
        routerError(
          'INVALID_ARGUMENTS',
          `server "${server}" does not use OAuth; servers that do: ${known.length > 0 ? known.join(', ') : '(none)'}`,
        ),
        { server },
      );
    }
    const current = await describe(hub, call, server);
    if (current.status === 'authorized' || current.status === 'pending') {
      return {
        state: 'success',
        summary: `oauth ${server}: ${current.status}`,
        payload: {
          ...current,
          ...(current.status === 'pending'
            ? { message: 'Ask the person to open the URL and sign in, then call mcp_auth again.' }
            : {}),
        },
      };
    }
    try {
      const start = await hub.authorize?.(server, { context: call });
      if (start?.status === 'pending') {
        return {
          state: 'success',
          summary: `oauth ${server}: pending`,
          payload: {
            server,
            status: 'pending',
            url: start.url,
            message: 'Ask the person to open the URL and sign in, then call mcp_auth again.',
          },
        };
      }
      return {
        state: 'success',
        summary: `oauth ${server}: authorized`,
        payload: await describe(hub, call, server),
      };
    } catch (error) {
      return errorOutcome(classifyRouterError(error), { server });
    }
  };
  const tool = defineRouterTool(
    {
      name,
      label: 'Authorize an MCP server',
      description:
        'Start OAuth sign-in for an MCP server that needs it: returns a URL for the person to open. Call again to see whether it completed.',
      parameters,
      run,
    },
    settings.format,
  );
  return { ...tool, readOnly: false };
}
