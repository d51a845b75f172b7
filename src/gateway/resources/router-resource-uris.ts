import type { McpToolHub } from '../../mcp/hub-types.js';
import type { ResourceUriRouting } from '../../router/router-options.js';
import type { ResourceIndex } from './resource-index.js';
import { locateResource, presentUri, type ResourceScope } from './resource-routing.js';

/**
 * The router tools of a gateway profile follow the gateway's URI rule: `read_mcp_resource`
 * finds the server of a URI through the gateway's resource index (a shared URI refused with
 * both servers named, a qualified one read from its server), and `list_mcp_resources` lists a
 * shared URI qualified. `allows` is the profile's server filter, read at every call.
 */
export function routerResourceUris(
  index: ResourceIndex,
  hub: McpToolHub,
  allows: (server: string) => boolean,
): ResourceUriRouting {
  const scope = (): ResourceScope => ({ index, hub, servers: hub.servers().filter(allows) });
  return {
    locate: (uri, signal) => locateResource(scope(), uri, signal),
    present: async (entries) => {
      const current = scope();
      for (const server of new Set(entries.map((entry) => entry.server)))
        index.recordResources(
          server,
          entries.filter((entry) => entry.server === server).map((entry) => entry.uri),
        );
      await index.load(current.servers);
      return entries.map((entry) => presentUri(current, entry.server, entry.uri));
    },
  };
}
