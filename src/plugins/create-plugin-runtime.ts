import type { PluginLogger } from './plugin-types.js';

/**
 * A stand-in for any part of OpenClaw's runtime we do not have: every property is another
 * stand-in, every call logs at debug and returns `undefined`. It is never thenable, so
 * `await` on it does not hang.
 */
function standIn(path: string, logger: PluginLogger): unknown {
  const target = () => undefined;
  return new Proxy(target, {
    get(_target, property) {
      if (typeof property === 'symbol' || property === 'then') return undefined;
      if (property === 'toJSON') return () => `[runtime ${path}]`;
      return standIn(`${path}.${property}`, logger);
    },
    apply() {
      logger.debug?.(`runtime ${path}() is not available outside OpenClaw; ignored`);
      return undefined;
    },
  });
}

/**
 * The harmless `api.runtime` plugins get: `config.loadConfig()` returns the host config,
 * writes and system events are ignored, and anything else is a stand-in that does nothing.
 */
export function createPluginRuntime(
  config: Record<string, unknown>,
  logger: PluginLogger,
): Record<string, unknown> {
  const known: Record<string, unknown> = {
    version: '0.0.0-mcptools',
    config: {
      loadConfig: () => config,
      writeConfigFile: async () => {
        logger.warn('runtime.config.writeConfigFile is not supported outside OpenClaw; ignored');
      },
    },
    system: {
      enqueueSystemEvent: () => false,
      requestHeartbeatNow: () => undefined,
    },
  };
  return new Proxy(known, {
    get(target, property, receiver) {
      if (typeof property === 'symbol' || property in target) return Reflect.get(target, property, receiver);
      if (property === 'then') return undefined;
      return standIn(`runtime.${property}`, logger);
    },
  });
}
