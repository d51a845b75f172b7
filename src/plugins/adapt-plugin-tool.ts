import { McpToolsError } from '../errors/mcp-tools-error.js';
import { messageOf } from '../errors/message-of.js';
import { errorResult } from '../tool/result.js';
import type { Tool, ToolAnnotations, ToolResult, ToolUpdateCallback } from '../tool/tool.js';
import { normalizePluginResult } from './normalize-plugin-result.js';
import { toPluginJsonSchema } from './plugin-tool-schema.js';

/** The fields of an OpenClaw plugin tool the loader reads. */
export interface RawPluginTool {
  name: string;
  label?: string;
  description?: string;
  parameters?: unknown;
  execute: (...args: unknown[]) => unknown;
  ownerOnly?: boolean;
  optional?: boolean;
  annotations?: ToolAnnotations;
  readOnly?: boolean;
}

/** `true` when `value` has the minimum of an OpenClaw tool: a string `name` and an `execute` function. */
export function isRawPluginTool(value: unknown): value is RawPluginTool {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.name === 'string' && candidate.name.length > 0 && typeof candidate.execute === 'function'
  );
}

/**
 * Wraps a plugin tool as a mcptools {@link Tool}: plain JSON Schema parameters, the exposed
 * name, `source: 'plugin'`, `server`/`category` = plugin id, `label` = original name when the
 * tool had none. `execute` never throws: results are normalised, a throw or an abort becomes
 * `Tool <plugin>/<tool> failed: <message>` as an `isError` result.
 */
export function adaptPluginTool(
  raw: unknown,
  options: {
    pluginId: string;
    exposedName: string;
    /** Runs the plugin's `execute` (the loader passes its fault guard). */
    run?: <T>(work: () => T) => T;
  },
): Tool {
  if (!isRawPluginTool(raw)) {
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      `Plugin "${options.pluginId}" registered a tool without a name or execute`,
    );
  }
  const { pluginId, exposedName } = options;
  const runPlugin = options.run ?? (<T>(work: () => T): T => work());
  const originalName = raw.name;
  const failed = (message: string): ToolResult =>
    errorResult(`Tool ${pluginId}/${originalName} failed: ${message}`);
  const execute = async (
    toolCallId: string,
    params: Record<string, unknown>,
    signal?: AbortSignal,
    onUpdate?: ToolUpdateCallback,
  ): Promise<ToolResult> => {
    if (signal?.aborted) return failed('aborted');
    const forwardUpdate = onUpdate
      ? (update: unknown) => {
          const { content, details } = normalizePluginResult(update);
          onUpdate({ content, details });
        }
      : undefined;
    const run = (async () => {
      try {
        return normalizePluginResult(
          await runPlugin(() => raw.execute.call(raw, toolCallId, params ?? {}, signal, forwardUpdate)),
        );
      } catch (error) {
        return failed(messageOf(error));
      }
    })();
    if (!signal) return run;
    // A plugin may ignore the signal; the caller still gets its answer when it aborts.
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<ToolResult>((resolve) => {
      onAbort = () => resolve(failed('aborted'));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([run, aborted]);
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  };
  return {
    name: exposedName,
    label: typeof raw.label === 'string' && raw.label ? raw.label : originalName,
    description: typeof raw.description === 'string' ? raw.description : (raw.label ?? originalName),
    parameters: toPluginJsonSchema(raw.parameters),
    execute,
    source: 'plugin',
    server: pluginId,
    category: pluginId,
    originalName,
    ...(raw.ownerOnly === true ? { ownerOnly: true } : {}),
    ...(raw.annotations ? { annotations: raw.annotations } : {}),
    ...(typeof raw.readOnly === 'boolean'
      ? { readOnly: raw.readOnly }
      : raw.annotations?.readOnlyHint === true
        ? { readOnly: true }
        : {}),
  };
}
