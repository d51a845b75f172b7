import type {
  CallToolRequestOptions,
  CallToolResult,
  Client,
  Tool as McpToolDefinition,
} from '@modelcontextprotocol/client';
import type { SecretRedactor } from '../config/secret-redactor.js';
import type { McpToolsError } from '../errors/mcp-tools-error.js';
import { jsonBounds } from '../json/json-bounds.js';
import { pollutionKey } from '../json/pollution-key.js';
import { observeToolCall } from '../telemetry/tool-call-telemetry.js';
import {
  type ArgumentCheck,
  type ArgumentValidator,
  formatArgumentIssues,
} from '../tool/argument-validator.js';
import { boundResultDepth } from '../tool/bound-result-depth.js';
import { type CallContext, contextOf } from '../tool/call-context.js';
import type { ContentBlock } from '../tool/content.js';
import { capResultText, errorResult, formatBytes } from '../tool/result.js';
import type { Tool, ToolAnnotations, ToolResult, ToolUpdateCallback } from '../tool/tool.js';
import { callToolResultSchema } from './call-tool-result-schema.js';
import { sendForCaller } from './caller-request.js';
import { checkStructuredContent } from './check-structured-content.js';
import { classifyError } from './classify-error.js';
import type { McpConnection } from './mcp-connection.js';
import { normalizeInputSchema } from './normalize-input-schema.js';
import { clientEra } from './sdk-era.js';

/** MCP 2026-07-28 `MissingRequiredClientCapability`. */
const MISSING_CAPABILITY = -32021;

/** Deepest arguments sent on; deeper ones would overflow validators and `JSON.stringify`. */
const MAX_ARGUMENT_DEPTH = 128;

/**
 * What `execute` returns for a round whose `input_required` went to the caller's relay: the
 * caller answers its client with that instead, so no one reads this as the call's result.
 */
const relayed = (): ToolResult => ({
  content: [{ type: 'text', text: 'the server asked for input: the call continues when the client retries' }],
  // Read by the tool-call pipeline: this round ends in input_required (its audit outcome).
  details: { inputRequired: true },
});

/** Settings shared by every tool of one server. */
export interface McpToolAdapterOptions {
  /** Per-call timeout in ms. */
  callTimeoutMs: number;
  /** Cap on the text of one result, in characters. */
  maxResultChars: number;
  /** Cap on the arguments of one call (estimated JSON bytes), checked before anything is sent. */
  maxArgumentBytes: number;
  /** Shared, caching argument validator. */
  validator: ArgumentValidator;
  /** Hides configured secrets in failures, including an upstream's own error text. */
  redactor: SecretRedactor;
}

/** The `isError` result every failure of an MCP tool becomes: `Tool <server>/<tool> failed: <message>`. */
export function toolFailure(
  server: string,
  tool: string,
  error: McpToolsError,
  extra?: Record<string, unknown>,
): ToolResult {
  return errorResult(`Tool ${server}/${tool} failed: ${error.message}`, {
    code: error.code,
    recoverable: error.recoverable,
    server,
    tool,
    ...error.data,
    ...extra,
  });
}

function toToolResult(result: CallToolResult, maxChars: number): ToolResult {
  // Lossless: every content type, structuredContent and _meta pass through untouched.
  const converted: ToolResult = { content: (result.content ?? []) as ContentBlock[] };
  if (result.isError === true) converted.isError = true;
  if (result.structuredContent !== undefined) {
    converted.structuredContent = result.structuredContent as Record<string, unknown>;
  }
  if (result._meta !== undefined) converted._meta = result._meta as Record<string, unknown>;
  return capResultText(boundResultDepth(converted), maxChars);
}

/**
 * How a tool is called: a plain request and a light result check (no output schema, no header
 * to mirror; see call-tool-result-schema.ts), `callTool` given the tool's definition (an output
 * schema to check: the client's cache keeps no tool list, see servable-response-store.ts), or
 * `callTool` reading the list the client holds (`x-mcp-header` declarations, mirrored over
 * 2026-07-28; such a list is kept).
 */
type CallRoute = 'request' | 'definition' | 'listed';

function callRoute(definition: McpToolDefinition): CallRoute {
  if (JSON.stringify(definition.inputSchema).includes('x-mcp-header')) return 'listed';
  return definition.outputSchema === undefined ? 'request' : 'definition';
}

/** What the first call of a tool works out: its argument check and its {@link CallRoute}. */
interface CallPlan {
  check: ArgumentCheck;
  route: CallRoute;
}

/**
 * The plan of each definition that was called, kept beside it: a tool never called (most of a
 * large catalog) keeps nothing for it, and a connect does not serialize every schema.
 */
const plans = new WeakMap<McpToolDefinition, CallPlan>();

function planFor(definition: McpToolDefinition, validator: ArgumentValidator): CallPlan {
  let plan = plans.get(definition);
  if (plan === undefined) {
    // Checked against the definition's schema, as listed (`tool.parameters` is the caller's copy).
    plan = {
      check: validator.checkFor(normalizeInputSchema(definition.inputSchema)),
      route: callRoute(definition),
    };
    plans.set(definition, plan);
  }
  return plan;
}

/**
 * `run` with every result passed through `redactor`: an upstream may echo a credential back, in
 * its error text ("rejected key sk-…") or in a result ("the header you sent was Bearer …"), and
 * a configured secret never leaves mcptools.
 */
function redacting(run: Tool['execute'], redactor: SecretRedactor): Tool['execute'] {
  return async (toolCallId, params, signal, onUpdate, context) =>
    redactor.value(await run(toolCallId, params, signal, onUpdate, context));
}

/**
 * One call of the MCP tool `definition` of `this` connection, as `execute` of its {@link Tool}
 * (bound to the connection, the definition, the server's tool settings and the exposed name:
 * about 88 bytes for each tool, where a closure and its context cost 128), observed by
 * {@link observeToolCall} (a span and metrics, when an OpenTelemetry SDK is registered).
 */
function callMcpTool(
  this: McpConnection,
  definition: McpToolDefinition,
  options: McpToolAdapterOptions,
  exposedName: string,
  toolCallId: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
  onUpdate?: ToolUpdateCallback,
  context?: CallContext,
): Promise<ToolResult> {
  // OpenClaw's signature at the edge: without a context, the call is the in-process operator's.
  const call = contextOf(toolCallId, signal, onUpdate, context);
  return observeToolCall(this, definition.name, exposedName, params ?? {}, () =>
    runMcpTool.call(this, definition, options, params, call),
  );
}

/**
 * The work of {@link callMcpTool}. Validates the arguments against the tool's
 * schema before anything is sent, calls through the connection's current client with the
 * caller's signal and the call timeout, feeds progress to `onUpdate`, and turns every failure
 * into an `isError` result; it never throws.
 */
async function runMcpTool(
  this: McpConnection,
  definition: McpToolDefinition,
  options: McpToolAdapterOptions,
  params: Record<string, unknown>,
  context: CallContext,
): Promise<ToolResult> {
  const { signal, onUpdate } = context;
  const server = this.name;
  const originalName = definition.name;
  const args = params ?? {};
  const bounds = jsonBounds(args, { maxDepth: MAX_ARGUMENT_DEPTH, maxBytes: options.maxArgumentBytes });
  if (bounds !== undefined) {
    const why =
      bounds === 'depth'
        ? `nested deeper than ${MAX_ARGUMENT_DEPTH} levels`
        : `larger than ${formatBytes(options.maxArgumentBytes)} (maxArgumentBytes)`;
    return errorResult(`Tool ${server}/${originalName} failed: invalid arguments: ${why}`, {
      code: 'INVALID_ARGUMENTS',
      recoverable: false,
      server,
      tool: originalName,
    });
  }
  const polluting = pollutionKey(args);
  if (polluting !== undefined) {
    return errorResult(
      `Tool ${server}/${originalName} failed: invalid arguments: key "${polluting}" is not allowed (prototype pollution)`,
      { code: 'INVALID_ARGUMENTS', recoverable: false, server, tool: originalName },
    );
  }
  const plan = planFor(definition, options.validator);
  const issues = plan.check(args);
  if (issues !== undefined) {
    return errorResult(
      `Tool ${server}/${originalName} failed: invalid arguments: ${formatArgumentIssues(issues)}`,
      {
        code: 'INVALID_ARGUMENTS',
        recoverable: true,
        server,
        tool: originalName,
        issues,
      },
    );
  }
  // A server whose callers each use their own credentials routes the call to the caller's connection.
  const routed = this.route?.(context);
  let connection: McpConnection = this;
  if (routed !== undefined) {
    try {
      connection = await routed;
    } catch (error) {
      return toolFailure(server, originalName, classifyError(error, { operation: 'connect' }));
    }
  }
  const client: Client | undefined = connection.client;
  if (client === undefined) return toolFailure(server, originalName, connection.unavailableError());
  const timeout = options.callTimeoutMs;
  const requestOptions: CallToolRequestOptions = { timeout };
  if (plan.route === 'definition') requestOptions.toolDefinition = definition;
  if (signal !== undefined) requestOptions.signal = signal;
  if (onUpdate !== undefined) {
    requestOptions.onprogress = (progress) => {
      const update = {
        content: progress.message === undefined ? [] : [{ type: 'text' as const, text: progress.message }],
        progress,
      };
      try {
        onUpdate(update);
      } catch {
        // A failing listener must not fail the call.
      }
    };
  }
  // A gateway's 2026-07-28 caller takes the server's input_required to its own client. Not
  // through `callTool` when the tool has an output schema (it would check an input_required
  // against it): a plain request, checked here; not at all for a tool that also mirrors headers.
  const relays = !(plan.route === 'listed' && definition.outputSchema !== undefined);
  let checkedHere = false;
  try {
    // For the caller: in flight on this client (gateway attribution), linked, its log level,
    // trace and capabilities in `_meta`, and its relay of input_required.
    const sent = await sendForCaller(
      client,
      connection.calls,
      server,
      originalName,
      context,
      ({ params: extra, allowInputRequired }) => {
        const params = { name: originalName, arguments: args, ...extra };
        if (allowInputRequired) requestOptions.allowInputRequired = true;
        checkedHere = allowInputRequired && plan.route === 'definition';
        return plan.route === 'request' || checkedHere
          ? client.request({ method: 'tools/call', params }, callToolResultSchema, requestOptions)
          : client.callTool(params, requestOptions);
      },
      { relay: relays },
    );
    if (sent.relayed) return relayed();
    const result = sent.result;
    if (checkedHere) checkStructuredContent(definition, result as CallToolResult);
    return toToolResult(result as CallToolResult, options.maxResultChars);
  } catch (error) {
    // A 2026-07-28 server that refused for want of a capability of the gateway caller's own
    // client (-32021, told it in the envelope): the caller's client gets that error as it is
    // (the spec's answer, HTTP 400), not a tool failure. An agent loop (no caller) never sees a throw.
    if (
      context.upstream?.capabilities !== undefined &&
      clientEra(client) === '2026-07-28' &&
      (error as { code?: unknown })?.code === MISSING_CAPABILITY
    )
      throw error;
    const classified = classifyError(error, { operation: 'call', signal, timeoutMs: timeout });
    if (classified.code === 'SERVER_DISCONNECTED' || classified.code === 'CONNECTION_FAILED') {
      connection.markBroken(classified, client);
      return toolFailure(server, originalName, connection.unavailableError(), {
        cause: classified.message,
      });
    }
    return toolFailure(server, originalName, classified);
  }
}

/**
 * Wraps one MCP tool as a {@link Tool} named `exposedName`, whose `execute` is
 * {@link callMcpTool} for `connection` and `definition`.
 */
export function createMcpTool(
  connection: McpConnection,
  definition: McpToolDefinition,
  exposedName: string,
  options: McpToolAdapterOptions,
): Tool {
  const run: Tool['execute'] = callMcpTool.bind(connection, definition, options, exposedName);
  // With no secret configured there is nothing to hide: `run` is `execute` (one closure per tool less).
  const execute = options.redactor.empty ? run : redacting(run, options.redactor);

  const server = connection.name;
  const tool: Tool = {
    name: exposedName,
    label: definition.name,
    description: definition.description ?? definition.title ?? '',
    // A copy: a caller editing `parameters` does not change the definition.
    parameters: normalizeInputSchema(definition.inputSchema),
    execute,
    source: 'mcp',
    server,
    originalName: definition.name,
    readOnly: definition.annotations?.readOnlyHint === true,
    category: server,
    // Spread in the literal, not set after it: V8 then makes room for both inside the object
    // (120 bytes) where a key added later starts a property array of its own (144 bytes in all).
    // The published filesystem and memory servers annotate every tool; a tool with neither key
    // pays 16 bytes for the room.
    ...(definition.annotations === undefined
      ? {}
      : { annotations: definition.annotations as ToolAnnotations }),
    ...(definition.outputSchema === undefined
      ? {}
      : { outputSchema: definition.outputSchema as Record<string, unknown> }),
  };
  return tool;
}
