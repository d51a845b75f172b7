import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { ToolResult } from '../tool/tool.js';
import { type McpToolsInstruments, mcptoolsInstruments } from './mcptools-metrics.js';
import { type OtelApi, otelApi } from './otel-api.js';
import { ATTR, EXECUTE_TOOL } from './telemetry-names.js';
import { callEnded, callStarted } from './tool-call-tallies.js';
import { withContextForInjection } from './trace-context.js';
import { errorType, failSpan, mcptoolsTracer, tracing } from './tracer.js';

/** What a tool call's telemetry reads of its connection (an `McpConnection`). */
export interface ObservedServer {
  readonly name: string;
  readonly transportKind: string | undefined;
  /** The era by its public name, `2025` or `2026-07-28` (the `mcptools.era` label). */
  readonly protocolEra: string | undefined;
  readonly protocolVersion: string | undefined;
}

/** The outcome of a tool result: `ok`, the failure's code in lower case, else `tool_error`. */
function outcomeOf(result: ToolResult): string {
  if (result.isError !== true) return 'ok';
  const code = (result.details as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? errorType(code) : 'tool_error';
}

/** Characters of the text and data in a result's content (its size, never its text). */
function contentSize(result: ToolResult): number {
  let size = 0;
  for (const block of result.content) {
    const value = block as { text?: unknown; data?: unknown };
    if (typeof value.text === 'string') size += value.text.length;
    else if (typeof value.data === 'string') size += value.data.length;
  }
  return size;
}

/**
 * What a tool's telemetry names and labels are, worked out once per tool (not per call): the
 * span name, the span attributes every call of it has, and the histogram's label set for each
 * outcome (one object per outcome, so a call allocates none). Made again when the connection's
 * transport, era or protocol version changes (a reconnect).
 */
interface ToolLabels {
  transportKind: string | undefined;
  protocolEra: string | undefined;
  protocolVersion: string | undefined;
  spanName: string;
  spanAttributes: Attributes;
  durationLabels: Map<string, Attributes>;
}

const labelsByServer = new WeakMap<ObservedServer, Map<string, ToolLabels>>();

function labelsOf(server: ObservedServer, originalName: string, exposedName: string): ToolLabels {
  let tools = labelsByServer.get(server);
  if (tools === undefined) {
    tools = new Map();
    labelsByServer.set(server, tools);
  }
  const known = tools.get(exposedName);
  if (
    known !== undefined &&
    known.transportKind === server.transportKind &&
    known.protocolEra === server.protocolEra &&
    known.protocolVersion === server.protocolVersion
  )
    return known;
  const labels: ToolLabels = {
    transportKind: server.transportKind,
    protocolEra: server.protocolEra,
    protocolVersion: server.protocolVersion,
    spanName: `tools/call ${originalName}`,
    spanAttributes: {
      [ATTR.operationName]: EXECUTE_TOOL,
      [ATTR.methodName]: 'tools/call',
      [ATTR.toolName]: originalName,
      [ATTR.exposedToolName]: exposedName,
      [ATTR.server]: server.name,
      ...transportAttributes(server),
    },
    durationLabels: new Map(),
  };
  tools.set(exposedName, labels);
  return labels;
}

function durationLabels(labels: ToolLabels, server: string, tool: string, outcome: string): Attributes {
  let set = labels.durationLabels.get(outcome);
  if (set === undefined) {
    set = { [ATTR.server]: server, [ATTR.toolName]: tool, [ATTR.outcome]: outcome };
    labels.durationLabels.set(outcome, set);
  }
  return set;
}

/**
 * Runs one MCP tool call (`run`, which never throws: failures are `isError` results) under an
 * `execute_tool` CLIENT span named `tools/call <tool>` (the GenAI and MCP semantic conventions:
 * `gen_ai.tool.name` is the server's name, `mcptools.tool.exposed_name` the caller's), counts
 * it and times it. Arguments and results are measured, never recorded. With no SDK
 * registered it is `run()`.
 */
export function observeToolCall(
  server: ObservedServer,
  originalName: string,
  exposedName: string,
  args: Record<string, unknown>,
  run: () => Promise<ToolResult>,
): Promise<ToolResult> {
  const api = otelApi();
  if (api === undefined) return run();
  const instruments = mcptoolsInstruments();
  // Names and attributes are worked out only for an SDK (and then once per tool).
  if (instruments === undefined && !tracing(api)) return run();
  const parent = api.context.active();
  const labels = labelsOf(server, originalName, exposedName);
  const span = mcptoolsTracer(api).startSpan(
    labels.spanName,
    { kind: api.SpanKind.CLIENT, attributes: labels.spanAttributes },
    parent,
  );
  if (!span.isRecording() && instruments === undefined) return run();
  return observed(api, server, originalName, args, run, instruments, parent, span, labels);
}

async function observed(
  api: OtelApi,
  server: ObservedServer,
  originalName: string,
  args: Record<string, unknown>,
  run: () => Promise<ToolResult>,
  instruments: McpToolsInstruments | undefined,
  parent: Context,
  span: Span,
  labels: ToolLabels,
): Promise<ToolResult> {
  const recording = span.isRecording();
  const argumentChars = JSON.stringify(args).length;
  if (recording) {
    span.setAttribute(ATTR.argumentCount, Object.keys(args).length);
    span.setAttribute(ATTR.argumentChars, argumentChars);
  }
  if (instruments !== undefined) callStarted(server.name);
  const started = performance.now();
  let result: ToolResult | undefined;
  try {
    // Over HTTP the span must reach the transport's fetch (the `traceparent` header), later and
    // asynchronously: only there is it made the active context (see withContextForInjection).
    const traced = api.trace.setSpan(parent, span);
    result = !recording
      ? await run()
      : server.transportKind === 'stdio' || server.transportKind === 'in-memory'
        ? await withContextForInjection(traced, run)
        : await api.context.with(traced, run);
    return result;
  } finally {
    const outcome = result === undefined ? 'internal_error' : outcomeOf(result);
    const size = result === undefined ? 0 : contentSize(result);
    if (recording) {
      span.setAttribute(ATTR.outcome, outcome);
      if (result !== undefined) {
        span.setAttribute(ATTR.resultContentCount, result.content.length);
        span.setAttribute(ATTR.resultChars, size);
      }
      if (outcome !== 'ok') failSpan(api, span, outcome);
      span.end();
    }
    if (instruments !== undefined) {
      // One SDK record per call (the histogram); counts go to plain tallies (tool-call-tallies.ts).
      instruments.toolCallDuration.record(
        (performance.now() - started) / 1000,
        durationLabels(labels, server.name, originalName, outcome),
      );
      callEnded(server.name, originalName, outcome, argumentChars, size);
    }
  }
}

/** `network.transport`, `mcptools.transport`, `mcptools.era` and `mcp.protocol.version` of a connected server. */
export function transportAttributes(server: ObservedServer): Attributes {
  const attributes: Attributes = {};
  if (server.transportKind !== undefined) {
    attributes[ATTR.transport] = server.transportKind;
    // A server in this process (`in-memory`) is reached through no network at all.
    if (server.transportKind === 'stdio') attributes[ATTR.networkTransport] = 'pipe';
    else if (server.transportKind !== 'in-memory') {
      attributes[ATTR.networkTransport] = 'tcp';
      attributes[ATTR.networkProtocol] = 'http';
    }
  }
  if (server.protocolEra !== undefined) attributes[ATTR.era] = server.protocolEra;
  if (server.protocolVersion !== undefined) attributes[ATTR.protocolVersion] = server.protocolVersion;
  return attributes;
}
