import type {
  CallToolRequestOptions,
  CallToolResult,
  Client,
  Tool as McpToolDefinition,
} from '@modelcontextprotocol/client';
import { LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import type { SecretRedactor } from '../config/secret-redactor.js';
import type { McpToolsError } from '../errors/mcp-tools-error.js';
import { jsonBounds } from '../json/json-bounds.js';
import { pollutionKey } from '../json/pollution-key.js';
import { type ArgumentValidator, formatArgumentIssues } from '../tool/argument-validator.js';
import { boundResultDepth } from '../tool/bound-result-depth.js';
import type { ContentBlock } from '../tool/content.js';
import { capResultText, errorResult, formatBytes } from '../tool/result.js';
import type { Tool, ToolAnnotations, ToolResult, ToolUpdateCallback } from '../tool/tool.js';
import { callToolResultSchema } from './call-tool-result-schema.js';
import { classifyError } from './classify-error.js';
import type { McpConnection } from './mcp-connection.js';
import { normalizeInputSchema } from './normalize-input-schema.js';
import { callerLogLevel, trackCall } from './server-requests.js';

/** Deepest arguments sent on; deeper ones would overflow validators and `JSON.stringify`. */
const MAX_ARGUMENT_DEPTH = 128;

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
 * How a tool is called: a plain request (no output schema, no header to mirror), `callTool`
 * given the tool's definition (an output schema to check), or `callTool` reading the list the
 * client holds (`x-mcp-header` declarations, mirrored over 2026-07-28).
 */
type CallRoute = 'request' | 'definition' | 'listed';

function callRoute(definition: McpToolDefinition): CallRoute {
  if (JSON.stringify(definition.inputSchema).includes('x-mcp-header')) return 'listed';
  return definition.outputSchema === undefined ? 'request' : 'definition';
}

/**
 * `run` with every result passed through `redactor`: an upstream may echo a credential back, in
 * its error text ("rejected key sk-…") or in a result ("the header you sent was Bearer …"), and
 * a configured secret never leaves mcptools. Made here, apart from `createMcpTool`: a closure
 * there naming `run` would keep `run` in every tool's context, secrets or not.
 */
function redacting(run: Tool['execute'], redactor: SecretRedactor): Tool['execute'] {
  return async (toolCallId, params, signal, onUpdate) =>
    redactor.value(await run(toolCallId, params, signal, onUpdate));
}

/**
 * Wraps one MCP tool as a {@link Tool} named `exposedName`. `execute` validates arguments
 * against the tool's schema before anything is sent, calls through the connection's current
 * client with the caller's signal and the call timeout, feeds progress to `onUpdate`, and
 * turns every failure into an `isError` result; it never throws.
 */
export function createMcpTool(
  connection: McpConnection,
  definition: McpToolDefinition,
  exposedName: string,
  options: McpToolAdapterOptions,
): Tool {
  // What `run` keeps of each tool is its context: `connection`, `definition`, `options` and the
  // two decisions of the first call. The server, the names, the timeout and the result cap are
  // read from them on each call, not held in more slots of every tool's context.
  let check: ReturnType<ArgumentValidator['checkFor']> | undefined;
  // `callTool` adds output validation and `x-mcp-header` mirroring; a tool that needs neither
  // is called with a plain request and a light result check (see call-tool-result-schema.ts).
  // One with an output schema hands `callTool` its definition: the client's cache does not
  // keep tool lists (see servable-response-store.ts), except one that declares headers, for
  // which `callTool` reads the list it holds. Decided by the first call: a connect does not
  // serialize every schema of every tool.
  let route: CallRoute | undefined;

  const run = async (
    _toolCallId: string,
    params: Record<string, unknown>,
    signal?: AbortSignal,
    onUpdate?: ToolUpdateCallback,
  ): Promise<ToolResult> => {
    const server = connection.name;
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
    // Checked against the definition's schema, as listed (`tool.parameters` is the caller's
    // copy): normalized again on the first call only, not held in the context of every tool.
    check ??= options.validator.checkFor(normalizeInputSchema(definition.inputSchema));
    const issues = check(args);
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
    const client: Client | undefined = connection.client;
    if (client === undefined) return toolFailure(server, originalName, connection.unavailableError());
    const timeout = options.callTimeoutMs;
    route ??= callRoute(definition);
    const requestOptions: CallToolRequestOptions = { timeout };
    if (route === 'definition') requestOptions.toolDefinition = definition;
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
    // The caller is in flight on this client until the call settles (gateway attribution).
    const release = trackCall(client);
    try {
      // A 2026-07-28 server logs to a request only at the level its envelope asks for.
      const logLevel = client.getProtocolEra() === 'modern' ? callerLogLevel() : undefined;
      const params = {
        name: originalName,
        arguments: args,
        ...(logLevel === undefined ? {} : { _meta: { [LOG_LEVEL_META_KEY]: logLevel } }),
      };
      const result =
        route === 'request'
          ? await client.request({ method: 'tools/call', params }, callToolResultSchema, requestOptions)
          : await client.callTool(params, requestOptions);
      return toToolResult(result as CallToolResult, options.maxResultChars);
    } catch (error) {
      const classified = classifyError(error, { operation: 'call', signal, timeoutMs: timeout });
      if (classified.code === 'SERVER_DISCONNECTED' || classified.code === 'CONNECTION_FAILED') {
        connection.markBroken(classified, client);
        return toolFailure(server, originalName, connection.unavailableError(), {
          cause: classified.message,
        });
      }
      return toolFailure(server, originalName, classified);
    } finally {
      release();
    }
  };

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
