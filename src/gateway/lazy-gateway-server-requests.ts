import type { LoadMcpServersOptions } from '../mcp/mcp-tool-hub.js';

type ServerRequestOptions = Pick<
  LoadMcpServersOptions,
  'onElicitation' | 'onSamplingRequest' | 'onRootsRequest'
>;

/**
 * The `loadMCPServers` options that make the hub hand every elicitation, sampling and roots
 * request of an upstream to the gateway's downstream client whose call caused it.
 *
 * This is the package root's `gatewayServerRequests`: the gateway's modules (and the MCP SDK
 * server) load with the first request an upstream sends, not with an import of mcptools.
 *
 * @example
 * const provider = await loadMCPServers(config, registry, gatewayServerRequests());
 * const gateway = createGateway({ registry, provider });
 */
export function gatewayServerRequests(): Required<ServerRequestOptions> {
  let handlers: Promise<Required<ServerRequestOptions>> | undefined;
  const load = () => {
    handlers ??= import('./calls/gateway-server-requests.js').then(
      (module) => module.gatewayServerRequests() as Required<ServerRequestOptions>,
    );
    return handlers;
  };
  return {
    onElicitation: async (params, context) => (await load()).onElicitation(params, context),
    onSamplingRequest: async (params, context) => (await load()).onSamplingRequest(params, context),
    onRootsRequest: async (context) => (await load()).onRootsRequest(context),
  };
}
