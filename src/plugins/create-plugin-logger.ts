import type { PluginLogger, PluginLogSink } from './plugin-types.js';

function formatArgument(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return value.message;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Default sink: warnings and errors to stderr, debug and info dropped (plugins are chatty). */
const defaultSink: PluginLogSink = {
  warn: (message) => process.stderr.write(`${message}\n`),
  error: (message) => process.stderr.write(`${message}\n`),
};

/**
 * The `api.logger` of one plugin: every line is prefixed `[plugin:<id>]` and routed to
 * `sink`; extra arguments (OpenClaw plugins pass errors) are appended. Never throws.
 */
export function createPluginLogger(pluginId: string, sink: PluginLogSink = defaultSink): PluginLogger {
  const route =
    (level: keyof PluginLogSink) =>
    (...args: unknown[]): void => {
      const write = sink[level];
      if (!write) return;
      try {
        write(`[plugin:${pluginId}] ${args.map(formatArgument).join(' ')}`);
      } catch {
        // A failing sink must not break the plugin that logged.
      }
    };
  return { debug: route('debug'), info: route('info'), warn: route('warn'), error: route('error') };
}
