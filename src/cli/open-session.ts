import type { McpToolsConfig } from '../config/config-types.js';
import type { PinsConfig } from '../config/pins-config.js';
import { startMcpServers } from '../hub/load-mcp-servers.js';
import type { McpChangingHub, ServerStatus } from '../mcp/hub-types.js';
import type { LoadMcpServersOptions } from '../mcp/mcp-tool-hub.js';
import { cliPins } from '../pins/cli-pins.js';
import { ToolRegistry } from '../pipeline/tool-registry.js';
import { loadOpenClawPlugins } from '../plugins/load-openclaw-plugins.js';
import type { PluginLoadResult } from '../plugins/plugin-types.js';
import { policyWarnings } from '../policies/policy-warnings.js';
import { createRouterTools } from '../router/create-router-tools.js';
import { semanticSearchFromConfig } from '../router/search/semantic-search-from-config.js';
import type { Tool } from '../tool/tool.js';
import { exampleTools } from './demo/example-tools.js';
import { resolveCliConfig } from './resolve-cli-config.js';
import { type SelfGuardOptions, selfGuard } from './self-guard.js';

/** Options shared by every command that talks to servers. */
export interface SessionOptions {
  /** A config file; absent → discovery, then the built-in default. */
  config?: string;
  /** Use the built-in demo configuration and native example tools. */
  demo?: boolean;
  connectTimeoutMs?: number;
  /** Call timeout of every MCP tool (`--timeout`); default: each server's `callTimeoutMs`. */
  callTimeoutMs?: number;
  /** Aborts the connects (SIGINT, SIGTERM): everything started is closed, then `ABORTED` is thrown. */
  signal?: AbortSignal;
  /** Every server state change while connecting and after (for live progress). */
  onStatus?: (status: ServerStatus) => void;
  /**
   * Who answers the servers' sampling, elicitation and roots requests, which of them the hub
   * declares (default `configured`: a command that serves no gateway answers none it was not
   * given; `serve` declares them `routed`, to its gateway's clients), and where OAuth tokens
   * live (a cluster's shared vault; default the vault file).
   */
  requests?: Pick<
    LoadMcpServersOptions,
    'onElicitation' | 'onSamplingRequest' | 'onRootsRequest' | 'serverRequests' | 'tokenStore'
  >;
  /** Runs once the configuration is read, before any server connects (`serve` sets up telemetry there). */
  beforeConnect?: (config: McpToolsConfig) => Promise<void>;
  /**
   * `project`: discovery reads only the project's own files, never other hosts' user-level
   * files (what `serve` does, docs/gateway-recursion.md). Default `all`.
   */
  discovery?: 'project' | 'all';
  /** Set by `serve`: this process is a gateway (the gateway chain, its listen addresses). */
  self?: SelfGuardOptions;
  /**
   * Resolve as soon as the servers start connecting, not once they all connected or failed:
   * `Session.connected` settles then (`serve`, so that it answers `initialize` at once).
   */
  background?: boolean;
  /** The pins to run with; default: the configuration's, else the default pin file's when it exists. */
  pins?: PinsConfig;
  /**
   * Start only these configured servers (names not configured are ignored), or those a function
   * picks from the loaded configuration (`undefined`: all); the others are neither started nor
   * listed by the hub. Native, router and plugin tools load as always.
   */
  only?: readonly string[] | ((config: McpToolsConfig) => readonly string[] | undefined);
}

/** A loaded configuration, its registry and its connected servers. */
export interface Session extends AsyncDisposable {
  config: McpToolsConfig;
  /** `true` when no configuration was found and the built-in default runs. */
  builtIn: boolean;
  registry: ToolRegistry;
  hub: McpChangingHub;
  /** The OpenClaw plugins the configuration named, loaded or not. */
  plugins: PluginLoadResult[];
  /**
   * Settles when every server connected or failed, plugins loaded and router tools registered
   * (already settled unless `background`); rejects with `ABORTED` on the signal, or with a
   * plugin's load failure, after closing the servers.
   */
  connected: Promise<void>;
  /** Removes the tools and hooks of those plugins from the registry (a reload loads the new list). */
  unloadPlugins(): void;
  /** Milliseconds from the start of the session to each server's first `connected` or `error`. */
  connectMs: ReadonlyMap<string, number>;
  tools(): Promise<Tool[]>;
  close(): Promise<void>;
}

/** `config` with only the configured servers `pick` names, or `undefined` when it leaves none out (all start). */
function narrowServers(config: McpToolsConfig, pick: SessionOptions['only']): McpToolsConfig | undefined {
  const only = typeof pick === 'function' ? pick(config) : pick;
  if (only === undefined) return undefined;
  const entries = Object.entries(config.servers);
  const servers = entries.filter(([name]) => only.includes(name));
  return servers.length === entries.length ? undefined : { ...config, servers: Object.fromEntries(servers) };
}

/** Loads the configuration, connects every server in parallel and registers their tools. */
export async function openSession(options: SessionOptions = {}): Promise<Session> {
  const { config, builtIn } = await resolveCliConfig(options);
  await options.beforeConnect?.(config);
  // Entries that are this mcptools are skipped before anything starts (docs/gateway-recursion.md).
  const skip = selfGuard(config, builtIn, options.self ?? {});
  const registry = new ToolRegistry(config.tools ?? {});
  if (builtIn)
    for (const tool of exampleTools()) registry.register(tool, { source: 'native', category: 'examples' });
  const started = performance.now();
  const connectMs = new Map<string, number>();
  const onStatus = (status: ServerStatus) => {
    if (!connectMs.has(status.name) && (status.state === 'connected' || status.state === 'error'))
      connectMs.set(status.name, Math.round(performance.now() - started));
    options.onStatus?.(status);
  };
  const narrowed = narrowServers(config, options.only);
  const { hub, connected: serversConnected } = await startMcpServers(narrowed ?? config, registry, {
    ...options.requests,
    serverRequests: options.requests?.serverRequests ?? 'configured',
    onStatus,
    skip,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    ...(options.callTimeoutMs ? { callTimeoutMs: options.callTimeoutMs } : {}),
    ...(config.workspaceDir ? { workspaceDir: config.workspaceDir } : {}),
    pins: options.pins ?? cliPins(config, builtIn) ?? false,
  });
  const context = config.workspaceDir ? { workspaceDir: config.workspaceDir } : {};
  const plugins: PluginLoadResult[] = [];
  let unloadPlugins = () => {};
  const connected = (async () => {
    await serversConnected;
    try {
      // Plugins load after the servers, so a plugin tool that takes an MCP tool's name is the one namespaced.
      if (config.plugins?.length) {
        const loaded = await loadOpenClawPlugins(config.plugins, registry, {
          ...(options.signal ? { signal: options.signal } : {}),
        });
        plugins.push(...loaded.plugins);
        unloadPlugins = () => loaded.unload();
      }
      for (const plugin of plugins) {
        if (plugin.status === 'error')
          process.stderr.write(`mcptools: ${plugin.error ?? `plugin ${plugin.id} failed`}\n`);
      }
      // The warnings weigh the whole configuration against the tools it gives: with servers left
      // out, every glob that matches only their tools would be reported as matching nothing.
      if (!narrowed)
        for (const warning of policyWarnings(config, registry, hub))
          process.stderr.write(`mcptools: ${warning}\n`);
      // Router tools sit in the same registry, so `call tool_index …` and `call read_mcp_resource …` work.
      // A command runs once and exits, so a search waits for the tools' embeddings instead of
      // answering lexically while they are computed in the background.
      const semantic = semanticSearchFromConfig(config.router?.semanticSearch);
      const semanticSearch = semantic
        ? { semanticSearch: { ...semantic, waitMs: Number.POSITIVE_INFINITY } }
        : {};
      for (const tool of createRouterTools(hub, registry, { config, context, ...semanticSearch })) {
        registry.register(tool, { source: 'router', category: 'router' });
      }
    } catch (error) {
      await hub.close();
      throw error;
    }
  })();
  if (options.background) connected.catch(() => {});
  else await connected;
  const close = () => hub.close();
  return {
    config,
    builtIn,
    registry,
    hub,
    plugins,
    unloadPlugins: () => unloadPlugins(),
    connected,
    connectMs,
    tools: () => registry.resolveAll(context),
    close,
    [Symbol.asyncDispose]: close,
  };
}
