import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { McpToolsConfig } from '../config/config-types.js';
import { loadConfig } from '../config/load-config.js';
import { applyServeSandboxDefault } from '../config/serve-sandbox-default.js';
import type { DefaultProfileOverrides, ProfileChanges } from '../gateway/profiles/reconfigure-profiles.js';
import { applyServerChanges, type ServerChanges } from '../mcp/apply-server-changes.js';
import type { McpChangingHub } from '../mcp/hub-types.js';

/** What a reload of `serve` reads and changes. */
export interface ServeReloadOptions {
  /** The configuration running now (its `source` is the file read again). */
  config: McpToolsConfig;
  hub: McpChangingHub;
  /** Also reload when the file changes (`serve --watch`), not only on SIGHUP. */
  watchFile: boolean;
  log: (message: string, level?: 'info' | 'warn' | 'error') => void;
  /** Holds the announcements of tool changes while a reload applies (`gateway.holdChanges`). */
  holdChanges?: () => () => void;
  /**
   * The gateway whose profiles and router settings follow the file (`gateway.reconfigure`), and
   * what the host sets over `gateway` for its default profile, worked out from each new
   * configuration (`serve --profile`/`--mode`; a throw refuses the reload).
   */
  gateway?: {
    reconfigure(config: McpToolsConfig, overrides?: DefaultProfileOverrides): Promise<ProfileChanges>;
    overrides(config: McpToolsConfig): DefaultProfileOverrides;
  };
  /** Loads the new `plugins` list when it changed (cli/reload-plugins.ts). */
  plugins?: (before: McpToolsConfig, after: McpToolsConfig) => Promise<void>;
  /** Cluster mode: tells the other replicas after each reload of this one's own (`gateway.announceReload`). */
  announce?: () => void;
  /** Called with each configuration applied. */
  onReloaded?: (config: McpToolsConfig, changes: ServerChanges) => void;
}

/** The running reload loop: the last reload's error (for the status page), and `close()`. */
export interface ServeReload {
  /** Why the last reload was refused (file, server, field), or `undefined` after a good one. */
  lastError(): string | undefined;
  /**
   * Reads and applies the configuration file now (what SIGHUP does); `announce: false` for a
   * reload another replica announced (not announced again).
   */
  reload(options?: { announce?: boolean }): Promise<void>;
  close(): void;
}

/** Changes of the file within this many ms are one reload (editors write in several steps). */
const WATCH_DEBOUNCE_MS = 200;

/**
 * Re-reads `serve`'s configuration on SIGHUP (and on every change of the file with `watchFile`)
 * and applies the difference without a restart (`applyServerChanges`): new servers connect,
 * removed ones close, changed ones reconnect, unchanged ones keep their connections and calls;
 * the policies, the OpenClaw plugins, the gateway's profiles and the router settings apply
 * from the next request.
 * A configuration that fails to load changes nothing: the running one stays and the error
 * (which names the file, the server and the field) is logged. Reloads run one at a time; one
 * asked for meanwhile runs after.
 */
export function watchServeReloads(options: ServeReloadOptions): ServeReload {
  const file = options.config.source;
  let current = options.config;
  let lastError: string | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let announce = false;

  /** Resolves true when the file was applied. */
  const reloadOnce = async (): Promise<boolean> => {
    if (file === undefined) {
      options.log('reload: the built-in configuration has no file to read again', 'warn');
      return false;
    }
    let next: McpToolsConfig;
    let overrides: DefaultProfileOverrides | undefined;
    try {
      next = await loadConfig(file);
      // The same default box as at start, or a reload would see every defaulted server as changed.
      applyServeSandboxDefault(next);
      overrides = options.gateway?.overrides(next);
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
      options.log(`reload refused, the running configuration stays: ${lastError}`, 'error');
      return false;
    }
    const release = options.holdChanges?.();
    try {
      // A server another process added and distrusted in the pin file must not be trusted here on first use.
      options.hub.pins?.refresh();
      const changes = await applyServerChanges(options.hub, current.servers, next.servers);
      // Policies, then profiles and router settings: all from the next request on.
      await options.hub.replacePolicies(next.policies);
      await options.plugins?.(current, next);
      const profiles = await options.gateway?.reconfigure(next, overrides);
      current = next;
      lastError = undefined;
      const profileNote = profiles
        ? `; profiles: ${profiles.added.length} added, ${profiles.removed.length} removed, ${profiles.kept.length} kept`
        : '';
      options.log(
        `reloaded ${file}: ${changes.added.length} added, ${changes.removed.length} removed, ${changes.changed.length} changed, ${changes.unchanged.length} unchanged${profileNote}`,
      );
      options.onReloaded?.(next, changes);
      return true;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
      options.log(`reload failed part way: ${lastError}`, 'error');
      return false;
    } finally {
      release?.();
    }
  };

  const reload = (reloadOptions: { announce?: boolean } = {}): Promise<void> => {
    if (reloadOptions.announce !== false) announce = true;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        const announcing = announce;
        announce = false;
        if ((await reloadOnce()) && announcing) options.announce?.();
      } while (again);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const onSignal = () => void reload();
  process.on('SIGHUP', onSignal);
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  if (options.watchFile && file !== undefined) {
    // The directory is watched, not the file: editors replace a file rather than write it in place.
    const name = basename(file);
    watcher = watch(dirname(file), (_event, changed) => {
      if (changed !== null && changed !== name) return;
      clearTimeout(timer);
      timer = setTimeout(() => void reload(), WATCH_DEBOUNCE_MS);
      timer.unref();
    });
    watcher.unref();
  }
  return {
    lastError: () => lastError,
    reload,
    close() {
      process.off('SIGHUP', onSignal);
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
