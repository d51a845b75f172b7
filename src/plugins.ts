/** `mcptools/plugins`: OpenClaw plugins loaded outside OpenClaw, their tools registered in a registry. */
export { loadOpenClawPlugins } from './plugins/load-openclaw-plugins.js';
export type {
  LoadedOpenClawPlugins,
  LoadOpenClawPluginsOptions,
  PluginLoadResult,
  PluginLogger,
  PluginLogSink,
  PluginSpec,
  PluginSpecObject,
} from './plugins/plugin-types.js';
