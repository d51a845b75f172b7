/**
 * Span, attribute and metric names: the OpenTelemetry GenAI and MCP semantic conventions
 * (`docs/gen-ai/mcp.md` of `open-telemetry/semantic-conventions-genai`, status Development)
 * where they name a thing, `mcptools.*` where they do not. Values are low-cardinality: a
 * server, a tool, a method, an outcome; never an argument value, a result text or a principal.
 */
export const ATTR = {
  operationName: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  methodName: 'mcp.method.name',
  protocolVersion: 'mcp.protocol.version',
  sessionId: 'mcp.session.id',
  resourceUri: 'mcp.resource.uri',
  networkTransport: 'network.transport',
  networkProtocol: 'network.protocol.name',
  errorType: 'error.type',
  rpcStatusCode: 'rpc.response.status_code',
  /** The configured server (mcptools' own: the semantic conventions have none for a client of many). */
  server: 'mcptools.server',
  /** The name a caller sees (`<server>__<tool>`); `gen_ai.tool.name` is the server's own. */
  exposedToolName: 'mcptools.tool.exposed_name',
  /** `stdio`, `streamable-http` or `sse` (`network.transport` says only pipe or tcp). */
  transport: 'mcptools.transport',
  /** `2025` (`initialize`) or `2026-07-28`. */
  era: 'mcptools.era',
  /** `ok`, `tool_error` (an `isError` result) or an error code in lower case (`timeout`, …). */
  outcome: 'mcptools.outcome',
  argumentCount: 'mcptools.arguments.count',
  argumentChars: 'mcptools.arguments.size',
  resultContentCount: 'mcptools.result.content.count',
  resultChars: 'mcptools.result.size',
  attempt: 'mcptools.connect.attempt',
  reconnect: 'mcptools.connect.reconnect',
  state: 'mcptools.server.state',
  direction: 'mcptools.direction',
  reason: 'mcptools.reason',
} as const;

/** The `gen_ai.operation.name` of a tool call. */
export const EXECUTE_TOOL = 'execute_tool';

/** The instrumentation scope of every tracer and meter of mcptools. */
export const INSTRUMENTATION_SCOPE = 'mcptools';
