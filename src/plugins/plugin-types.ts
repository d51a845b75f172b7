import type { NamingOptions } from '../registry/tool-name.js';

/** A plugin logger as OpenClaw hands it to `register` (`api.logger`). */
export interface PluginLogger {
  debug?: (message: string, ...details: unknown[]) => void;
  info: (message: string, ...details: unknown[]) => void;
  warn: (message: string, ...details: unknown[]) => void;
  error: (message: string, ...details: unknown[]) => void;
}

/** Where plugin log lines go: every method optional, each line already prefixed with the plugin id. */
export interface PluginLogSink {
  debug?: (message: string) => void;
  info?: (message: string) => void;
  warn?: (message: string) => void;
  error?: (message: string) => void;
}

/** One plugin to load, in its long form. */
export interface PluginSpecObject {
  /** An installed package name (`@scope/name`) or a path to a plugin directory or entry file. */
  spec: string;
  /** The plugin's own config (`api.pluginConfig`), validated against the manifest's `configSchema`. */
  config?: Record<string, unknown>;
  /** `false` skips the plugin; it is reported as `disabled`. */
  enabled?: boolean;
  /**
   * Globs over the tool's own name, its exposed name, `<pluginId>/<tool>` and the plugin id.
   * When given, only matching tools are registered, and matching `optional` tools are switched on.
   */
  allow?: string[];
  /** Globs (same names as `allow`) of tools never registered. Deny wins. */
  deny?: string[];
}

/** A plugin to load: a package name, a path, or the long form. */
export type PluginSpec = string | PluginSpecObject;

/** Options of `loadOpenClawPlugins`. */
export interface LoadOpenClawPluginsOptions {
  /** Where package names and relative paths are resolved from. Default `process.cwd()`. */
  cwd?: string;
  /** The host config plugins see as `api.config` (and tool factories as `context.config`). Default `{}`. */
  config?: Record<string, unknown>;
  /** Receives plugin log lines. Default: `warn`/`error` to stderr, `debug`/`info` dropped. */
  logger?: PluginLogSink;
  /** How colliding names are namespaced (`<pluginId>__<tool>`). */
  naming?: NamingOptions;
  /**
   * Root of the plugins' state (`api.runtime.state.resolveStateDir()`); each plugin's keyed
   * and blob stores live in `<stateDir>/plugins/<pluginId>/`. Default
   * `$XDG_STATE_HOME/mcptools/openclaw`, else `~/.local/state/mcptools/openclaw`.
   */
  stateDir?: string;
  /**
   * Apply OpenClaw 2026.9's own rules: an `openclaw.plugin.json` with a `configSchema`, every
   * registered tool declared in `contracts.tools`, a synchronous `register`, and no import of
   * the removed root `openclaw/plugin-sdk`. Default `false` (lenient: such plugins load).
   */
  strict?: boolean;
  /** Longest time one plugin's import plus `register` may take. Default 30 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** What happened to one plugin. */
export interface PluginLoadResult {
  /** The plugin id (manifest `id`, else the definition's `id`, else the package or file name). */
  id: string;
  name?: string;
  version?: string;
  /** The spec as given. */
  spec: string;
  /** The entry file imported, when one was found. */
  source?: string;
  rootDir?: string;
  status: 'loaded' | 'error' | 'disabled';
  /** Why the plugin failed, naming the plugin (and the config field for a bad config). */
  error?: string;
  /**
   * Exposed names of the tools it registered: factory tools by their declared names, else
   * by the names its manifest's `contracts.tools` declares.
   */
  tools: string[];
  /** Tools it registered that stay off until an allow glob names them. */
  optionalTools: string[];
  /** Counts of the other registrations it made (`registerHook`, `on`, …), accepted as no-ops. */
  ignored: Record<string, number>;
  /** The tool hooks it registered with `api.on` (`before_tool_call`, …), run by the registry's pipeline. */
  hooks?: string[];
}

/** What `loadOpenClawPlugins` returns. */
export interface LoadedOpenClawPlugins {
  plugins: PluginLoadResult[];
  /** Removes every tool the plugins registered from the registry. Idempotent. */
  unload(): void;
}
