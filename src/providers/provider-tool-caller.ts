import { errorResult } from '../tool/result.js';
import type { Tool, ToolResult } from '../tool/tool.js';
import type { ProviderName } from './conversion-report.js';
import { providerArgumentNames, restoreArguments } from './provider-argument-names.js';
import { providerToolNames } from './provider-tool-names.js';
import { stripStrictNulls } from './strip-strict-nulls.js';

/** A provider's tool call mapped back to the {@link Tool} and the arguments it expects. */
export interface ResolvedToolCall {
  tool: Tool;
  params: Record<string, unknown>;
}

/** Routes a provider's tool calls to the tools a `to*Tools` adapter converted. */
export interface ProviderToolCaller {
  /** The tool behind `name` and its arguments, or `undefined` for an unknown name or bad JSON. */
  resolve(name: string, args: unknown): ResolvedToolCall | undefined;
  /** Runs the call; an unknown tool, bad arguments or a throw become `isError` results. */
  call(name: string, toolCallId: string, args: unknown, signal?: AbortSignal): Promise<ToolResult>;
}

/** Options of {@link createProviderToolCaller}. */
export interface ProviderToolCallerOptions {
  /** The tools were sent to OpenAI with `strict: true`: strict-mode `null`s are removed. */
  strict?: boolean;
}

function parseArguments(args: unknown): Record<string, unknown> | undefined {
  let value = args;
  if (typeof value === 'string') {
    if (value.trim() === '') return {};
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (value === undefined || value === null) return {};
  return typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Runs a tool so that a throwing native tool still yields an `isError` result. */
export async function runToolSafely(
  tool: Tool,
  toolCallId: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ToolResult> {
  try {
    return await tool.execute(toolCallId, params, signal);
  } catch (error) {
    return errorResult(`Tool ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The other half of the adapters: maps a tool call in a provider's terms (its tool name,
 * arguments as an object or a JSON string) back to the {@link Tool}, undoing renamed names and
 * argument keys and, for OpenAI strict mode, the `null`s it sends for omitted optional values.
 *
 * @example
 * const caller = createProviderToolCaller(tools, 'openai');
 * for (const call of message.tool_calls ?? []) {
 *   const result = await caller.call(call.function.name, call.id, call.function.arguments);
 *   messages.push(toOpenAIToolResult(result, call.id));
 * }
 */
export function createProviderToolCaller(
  tools: readonly Tool[],
  provider: ProviderName,
  options: ProviderToolCallerOptions = {},
): ProviderToolCaller {
  const names = providerToolNames(tools, provider);
  const resolve = (name: string, args: unknown): ResolvedToolCall | undefined => {
    const tool = names.get(name);
    const parsed = parseArguments(args);
    if (!tool || !parsed) return undefined;
    let params = restoreArguments(parsed, providerArgumentNames(tool.parameters, provider));
    if (provider === 'openai' && options.strict) params = stripStrictNulls(params, tool.parameters);
    return { tool, params };
  };
  return {
    resolve,
    async call(name, toolCallId, args, signal) {
      if (!names.has(name)) return errorResult(`Unknown tool: ${name}`);
      const resolved = resolve(name, args);
      if (!resolved) return errorResult(`Invalid arguments for ${name}: expected a JSON object`);
      return runToolSafely(resolved.tool, toolCallId, resolved.params, signal);
    },
  };
}
