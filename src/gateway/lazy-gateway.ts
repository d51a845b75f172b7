import type { Transport } from '@modelcontextprotocol/server';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import type { Gateway } from './create-gateway.js';
import type { GatewayOptions } from './gateway-options.js';

/**
 * Serves everything in `registry` (native, plugin and MCP tools, or the router tools) as one
 * MCP server, to 2026-07-28 and 2025-era clients on the same URL (see `create-gateway.ts`).
 *
 * This is the package root's `createGateway`: it returns at once and loads the gateway's
 * modules and the MCP SDK server in the background, so that importing mcptools does not
 * (issue 9, import cost). `fetch`, `listen` and `close` wait for them; `serveStdio` starts
 * serving as soon as they are loaded (an unknown profile still throws at once; a later failure
 * goes to `options.log`).
 *
 * @example
 * const registry = new ToolRegistry();
 * const provider = await loadMCPServers(config, registry, gatewayServerRequests());
 * const gateway = createGateway({ registry, provider, config });
 * const { url } = await gateway.listen({ port: 8808 });
 */
export function createGateway(options: GatewayOptions): Gateway {
  let gateway: Gateway | undefined;
  const loading = import('./create-gateway.js').then((module) => {
    gateway = module.createGateway(options);
    return gateway;
  });
  // A failure surfaces from the methods; never as an unhandled rejection.
  loading.catch(() => {});
  const ready = async (): Promise<Gateway> => gateway ?? (await loading);
  const profiles = new Set(['', ...Object.keys(options.profiles ?? options.config?.gateway?.profiles ?? {})]);
  const close = async (): Promise<void> => {
    const loaded = await loading.catch(() => undefined);
    await loaded?.close();
  };
  return {
    fetch: async (request) => (await ready()).fetch(request),
    listen: async (listenOptions) => (await ready()).listen(listenOptions),
    serveStdio(stdioOptions: { transport?: Transport; profile?: string } = {}) {
      if (gateway) return gateway.serveStdio(stdioOptions);
      if (!profiles.has(stdioOptions.profile ?? ''))
        throw new McpToolsError('INVALID_ARGUMENTS', `unknown profile "${stdioOptions.profile}"`);
      loading
        .then((loaded) => loaded.serveStdio(stdioOptions))
        .catch((error: unknown) =>
          options.log?.(`stdio: ${error instanceof Error ? error.message : String(error)}`),
        );
    },
    holdChanges() {
      if (gateway) return gateway.holdChanges();
      const held = loading.then((loaded) => loaded.holdChanges());
      return () => void held.then((release) => release()).catch(() => {});
    },
    reconfigure: async (config, overrides) => (await ready()).reconfigure(config, overrides),
    // Only a listening gateway is in a cluster: one not loaded yet has no one to tell.
    announceReload: () => gateway?.announceReload(),
    close,
    // Nothing can be in flight before the gateway is loaded.
    calls: () => gateway?.calls() ?? { running: 0, parked: 0 },
    [Symbol.asyncDispose]: close,
  };
}
