import type { McpToolsConfig } from '../config/config-types.js';
import { loadConfig } from '../config/load-config.js';
import { loadMCPServers } from '../mcp/load-mcp-servers.js';
import type { MCPToolProvider } from '../mcp/provider-types.js';
import { loadOpenClawPlugins } from '../plugins/load-openclaw-plugins.js';
import type { PluginLoadResult } from '../plugins/plugin-types.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { createRouterTools } from '../router/create-router-tools.js';
import { semanticSearchFromConfig } from '../router/search/semantic-search-from-config.js';
import type { Tool } from '../tool/tool.js';
import { defaultConfig } from './demo/default-config.js';
import { exampleTools } from './demo/example-tools.js';

/** Options shared by every command that talks to servers. */
export interface SessionOptions {
  /** A config file; absent → discovery, then the built-in default. */
  config?: string;
  /** Use the built-in demo configuration and native example tools. */
  demo?: boolean;
  connectTimeoutMs?: number;
  signal?: AbortSignal;
}

/** A loaded configuration, its registry and its connected servers. */
export interface Session extends AsyncDisposable {
  config: McpToolsConfig;
  registry: ToolRegistry;
  provider: MCPToolProvider;
  /** The OpenClaw plugins the configuration named, loaded or not. */
  plugins: PluginLoadResult[];
  tools(): Promise<Tool[]>;
  close(): Promise<void>;
}

async function resolveConfig(options: SessionOptions): Promise<{ config: McpToolsConfig; demo: boolean }> {
  if (options.demo) return { config: defaultConfig(), demo: true };
  if (options.config) return { config: await loadConfig(options.config), demo: false };
  const found = await loadConfig(undefined, { optional: true });
  if (found.source !== undefined) return { config: found, demo: false };
  // No config anywhere: fall back to the demo so a fresh checkout does something useful.
  process.stderr.write('mcptools: no configuration file found; using the built-in demo configuration\n');
  return { config: defaultConfig(), demo: true };
}

/** Loads the configuration, connects every server in parallel and registers their tools. */
export async function openSession(options: SessionOptions = {}): Promise<Session> {
  const { config, demo } = await resolveConfig(options);
  const registry = new ToolRegistry(config.tools ?? {});
  if (demo)
    for (const tool of exampleTools()) registry.register(tool, { source: 'native', category: 'examples' });
  const provider = await loadMCPServers(config, registry, {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    ...(config.workspaceDir ? { workspaceDir: config.workspaceDir } : {}),
  });
  // Plugins load after the servers, so a plugin tool that takes an MCP tool's name is the one namespaced.
  const plugins = config.plugins?.length
    ? (
        await loadOpenClawPlugins(config.plugins, registry, {
          ...(options.signal ? { signal: options.signal } : {}),
        })
      ).plugins
    : [];
  for (const plugin of plugins) {
    if (plugin.status === 'error')
      process.stderr.write(`mcptools: ${plugin.error ?? `plugin ${plugin.id} failed`}\n`);
  }
  // Router tools sit in the same registry, so `call tool_index …` and `call read_mcp_resource …` work.
  const context = config.workspaceDir ? { workspaceDir: config.workspaceDir } : {};
  // A command runs once and exits, so a search waits for the tools' embeddings instead of
  // answering lexically while they are computed in the background.
  const semantic = semanticSearchFromConfig(config.router?.semanticSearch);
  const semanticSearch = semantic
    ? { semanticSearch: { ...semantic, waitMs: Number.POSITIVE_INFINITY } }
    : {};
  for (const tool of createRouterTools(provider, registry, { config, context, ...semanticSearch })) {
    registry.register(tool, { source: 'router', category: 'router' });
  }
  const close = () => provider.close();
  return {
    config,
    registry,
    provider,
    plugins,
    tools: () => registry.resolveAll(context),
    close,
    [Symbol.asyncDispose]: close,
  };
}
