import { openBlobStore } from './plugin-blob-store.js';
import { openKeyedStore, openSyncKeyedStore } from './plugin-keyed-store.js';
import { pluginStateDir } from './plugin-state-dir.js';
import type { PluginLogger } from './plugin-types.js';

/** The message every runtime member mcptools cannot provide fails with. */
export const GATEWAY_ONLY = 'not available outside the OpenClaw gateway';

/** Fails a call to a runtime member that only OpenClaw's gateway has, naming the member. */
export function gatewayOnlyError(member: string): Error {
  const error = new Error(`${GATEWAY_ONLY}: ${member}`);
  error.name = 'GatewayOnlyError';
  return error;
}

/**
 * A runtime member we do not have: callable (the call throws {@link gatewayOnlyError}),
 * and every property of it is another such member, so `runtime.nodes.list()` fails with
 * one clear message instead of "cannot read properties of undefined". Never thenable.
 */
function gatewayOnly(path: string): unknown {
  const target = () => undefined;
  return new Proxy(target, {
    get(_target, property) {
      if (typeof property === 'symbol' || property === 'then') return undefined;
      if (property === 'toJSON') return () => `[${GATEWAY_ONLY}: ${path}]`;
      return gatewayOnly(`${path}.${property}`);
    },
    apply() {
      throw gatewayOnlyError(`${path}()`);
    },
    construct() {
      throw gatewayOnlyError(`new ${path}()`);
    },
  });
}

/** Wraps a known part of the runtime so that its unknown members become {@link gatewayOnly}. */
function withFallback(known: Record<string, unknown>, path: string): Record<string, unknown> {
  for (const [key, value] of Object.entries(known)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      known[key] = withFallback(value as Record<string, unknown>, `${path}.${key}`);
    }
  }
  return new Proxy(known, {
    get(target, property, receiver) {
      if (typeof property === 'symbol' || property in target) return Reflect.get(target, property, receiver);
      if (property === 'then' || property === 'toJSON') return undefined;
      return gatewayOnly(`${path}.${property}`);
    },
  });
}

/** What the runtime of one plugin is built from. */
export interface PluginRuntimeParams {
  pluginId: string;
  config: Record<string, unknown>;
  logger: PluginLogger;
  /** The state root (`runtime.state.resolveStateDir()`); the plugin's stores live in `<root>/plugins/<id>`. */
  stateRoot: string;
}

/**
 * The `api.runtime` a plugin gets outside OpenClaw, its shape taken from OpenClaw 2026.9's
 * `PluginRuntime` type: `version`; `config.current()` (and the older `loadConfig()`) return
 * the host config; `state.resolveStateDir()`, `openKeyedStore`, `openSyncKeyedStore` and
 * `openBlobStore` work on disk in the plugin's own folder; system events and heartbeats are
 * accepted and dropped; `logging` routes to the plugin's logger. Every other member throws
 * `not available outside the OpenClaw gateway: runtime.<member>()` when called.
 */
export function createPluginRuntime(params: PluginRuntimeParams): Record<string, unknown> {
  const { config, logger } = params;
  const pluginDir = pluginStateDir(params.stateRoot, params.pluginId);
  const known: Record<string, unknown> = {
    version: '0.0.0-mcptools',
    config: {
      current: () => config,
      loadConfig: () => config,
      writeConfigFile: async () => {
        logger.warn('runtime.config.writeConfigFile is not supported outside OpenClaw; ignored');
      },
    },
    system: {
      enqueueSystemEvent: () => false,
      requestHeartbeat: () => undefined,
      requestHeartbeatNow: () => undefined,
    },
    logging: {
      shouldLogVerbose: () => false,
      getChildLogger: () => logger,
    },
    state: {
      resolveStateDir: () => params.stateRoot,
      openKeyedStore: (options: Parameters<typeof openKeyedStore>[1]) => openKeyedStore(pluginDir, options),
      openSyncKeyedStore: (options: Parameters<typeof openSyncKeyedStore>[1]) =>
        openSyncKeyedStore(pluginDir, options),
      openBlobStore: (options: Parameters<typeof openBlobStore>[1]) => openBlobStore(pluginDir, options),
    },
  };
  return withFallback(known, 'runtime');
}
