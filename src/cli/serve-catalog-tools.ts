import { createAddServerTool } from '../agent-catalog/add-server-tool.js';
import { catalogApprovals } from '../agent-catalog/catalog-approvals.js';
import { createFindServerTool } from '../agent-catalog/find-server-tool.js';
import { registryAgentCatalog } from '../agent-catalog/registry-agent-catalog.js';
import { catalogSources } from '../catalog/catalog-source.js';
import type { McpToolsConfig } from '../config/config-types.js';
import type { McpChangingHub } from '../mcp/hub-types.js';
import { findOnPath } from '../paths/find-on-path.js';
import type { ToolRegistry } from '../pipeline/tool-registry.js';

/** What `serve` hands to {@link serveCatalogTools}. */
export interface ServeCatalogToolsOptions {
  config: McpToolsConfig;
  hub: McpChangingHub;
  registry: ToolRegistry;
  /** Re-reads and applies the configuration file, announced to a cluster's other replicas. */
  reload: () => Promise<void>;
  log: (message: string, level?: 'info' | 'warn') => void;
}

/**
 * With `router.catalogTools`, registers `find_server` and `add_server` (owner-only, each call
 * approved by a person through the pipeline) in `serve`'s registry. They need a configuration
 * file to add to and pins to hold an added server's tools until an operator approves them:
 * without either they stay off, and the log says why.
 */
export function serveCatalogTools(options: ServeCatalogToolsOptions): void {
  const { config, hub, registry, log } = options;
  if (config.router?.catalogTools !== true) return;
  const file = config.source;
  if (file === undefined) {
    log(
      'router.catalogTools: the built-in configuration has no file to add servers to; find_server and add_server are off',
      'warn',
    );
    return;
  }
  const pins = hub.pins;
  if (pins === undefined || pins.modeOf('') !== 'enforce') {
    log(
      'router.catalogTools needs pins in enforce mode (a "pins" section): a server an agent adds must wait for an operator to approve its tools; find_server and add_server are off',
      'warn',
    );
    return;
  }
  const catalog = registryAgentCatalog(catalogSources(config.registries), file, {
    canRun: (runtime) => findOnPath(runtime) !== undefined,
  });
  registry.use(catalogApprovals({ findServer: 'find_server', addServer: 'add_server' }));
  registry.register(createFindServerTool(catalog));
  registry.register(
    createAddServerTool({
      catalog,
      distrust: (entry) => pins.distrust(entry),
      held: (entry) => pins.modeOf(entry) === 'enforce',
      reload: options.reload,
      log: (line) => log(line, 'warn'),
      configFile: file,
    }),
  );
}
