import { McpToolsError } from '../../errors/mcp-tools-error.js';
import type {
  McpToolHub,
  MultiServerList,
  PromptService,
  ResourceService,
  ServerStatus,
} from '../../mcp/hub-types.js';
import type { CallContext } from '../../tool/call-context.js';

function only<T extends { server: string }>(
  list: MultiServerList<T>,
  allows: (server: string) => boolean,
): MultiServerList<T> {
  return {
    items: list.items.filter((item) => allows(item.server)),
    errors: list.errors.filter((error) => allows(error.server)),
  };
}

/**
 * A view of `hub` that sees only the servers `allows` admits: the router tools of a
 * gateway profile run over it, so `list_mcp_resources` or `get_mcp_prompt` can never reach a
 * server the profile denies. A denied server reads as unknown. OAuth sign-in (`authorize`,
 * `oauthServers`) is passed through for the admitted servers, so `mcp_auth` is served too.
 */
export function scopedHub(hub: McpToolHub, allows: (server: string) => boolean): McpToolHub {
  const check = (server: string) => {
    if (!allows(server)) {
      throw new McpToolsError('CONNECTION_FAILED', `unknown server "${server}"`, {
        data: { server },
        recoverable: false,
      });
    }
  };
  const guarded =
    <A extends unknown[], R>(run: (server: string, ...rest: A) => Promise<R>) =>
    async (server: string, ...rest: A): Promise<R> => {
      check(server);
      return run(server, ...rest);
    };
  const resources: ResourceService = {
    list: guarded((server, options) => hub.resources.list(server, options)),
    listAll: async (options) => only(await hub.resources.listAll(options), allows),
    listTemplates: guarded((server, options) => hub.resources.listTemplates(server, options)),
    listAllTemplates: async (options) => only(await hub.resources.listAllTemplates(options), allows),
    read: guarded((server, uri: string, options) => hub.resources.read(server, uri, options)),
  };
  const prompts: PromptService = {
    list: guarded((server, options) => hub.prompts.list(server, options)),
    listAll: async (options) => only(await hub.prompts.listAll(options), allows),
    get: guarded((server, name: string, args, options) => hub.prompts.get(server, name, args, options)),
  };
  function status(): ServerStatus[];
  function status(server: string): ServerStatus | undefined;
  function status(server?: string): ServerStatus[] | ServerStatus | undefined {
    if (server !== undefined) return allows(server) ? hub.status(server) : undefined;
    return hub.status().filter((row) => allows(row.name));
  }
  return {
    servers: () => hub.servers().filter(allows),
    status,
    refresh: async (server, options) => {
      if (server !== undefined) check(server);
      await hub.refresh(server, options);
    },
    // The view owns nothing: closing it never closes the hub.
    close: async () => {},
    [Symbol.asyncDispose]: async () => {},
    resources,
    prompts,
    on: (event, listener) => hub.on(event, listener),
    ...(hub.toolOrigin ? { toolOrigin: (name: string) => hub.toolOrigin?.(name) } : {}),
    ...(hub.toolRefusal
      ? {
          toolRefusal: (name: string) => {
            const refusal = hub.toolRefusal?.(name);
            return refusal !== undefined && allows(refusal.server) ? refusal : undefined;
          },
        }
      : {}),
    // OAuth sign-in (`mcp_auth`) for the admitted servers only.
    ...(hub.authorize
      ? {
          authorize: guarded((server, options?: Parameters<NonNullable<McpToolHub['authorize']>>[1]) =>
            hub.authorize!(server, options),
          ),
        }
      : {}),
    ...(hub.pendingAuthorization
      ? {
          pendingAuthorization: (server: string, context?: CallContext) =>
            allows(server) ? hub.pendingAuthorization?.(server, context) : undefined,
        }
      : {}),
    ...(hub.oauthServers ? { oauthServers: () => (hub.oauthServers?.() ?? []).filter(allows) } : {}),
    ...(hub.callerSignIn
      ? {
          callerSignIn: async (server: string, context?: CallContext) =>
            allows(server) ? hub.callerSignIn?.(server, context) : undefined,
        }
      : {}),
  };
}
