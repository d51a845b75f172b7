import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type Implementation,
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { runAsCaller } from '../mcp/server-requests.js';
import type { ToolUpdate } from '../tool/tool.js';
import { DownstreamCall, type ForwardedRequest } from './downstream-call.js';
import type { DownstreamSession } from './downstream-session.js';
import type { GatewayCore } from './gateway-core.js';
import type { GatewayProfile } from './gateway-profile.js';
import { joinPromptName, splitPromptName } from './prompt-names.js';
import { unwrapResourceUri, wrapResourceUri } from './resource-uri.js';
import { toCallToolResult, toMcpTool } from './tool-result-wire.js';

function capabilitiesOf(server: Server, context: ServerContext): ClientCapabilities | undefined {
  const envelope = context.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  return declared ?? server.getClientCapabilities();
}

/** A typed failure from the hub as the JSON-RPC error a downstream client gets. */
function protocolError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (McpToolsError.isInstance(error)) {
    if (error.code === 'RESOURCE_NOT_FOUND' && typeof error.data?.uri === 'string')
      return new ResourceNotFoundError(error.data.uri, error.message);
    const code =
      error.code === 'INVALID_URI' || error.code === 'INVALID_ARGUMENTS' || error.code === 'TOOL_NOT_FOUND'
        ? ProtocolErrorCode.InvalidParams
        : ProtocolErrorCode.InternalError;
    return new ProtocolError(code, error.message);
  }
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    error instanceof Error ? error.message : String(error),
  );
}

function envelopeLogLevel(context: ServerContext): LoggingLevel | undefined {
  const envelope = context.mcpReq.envelope as Record<string, unknown> | undefined;
  const level = envelope?.[LOG_LEVEL_META_KEY];
  return typeof level === 'string' ? (level as LoggingLevel) : undefined;
}

function pushFor(context: ServerContext) {
  return (request: ForwardedRequest, signal: AbortSignal): Promise<unknown> => {
    if (request.method === 'elicitation/create')
      return context.mcpReq.elicitInput(request.params as never, { signal });
    if (request.method === 'sampling/createMessage')
      return context.mcpReq.requestSampling(request.params as never, { signal });
    return context.mcpReq.send({ method: 'roots/list' }, { signal });
  };
}

/**
 * The low-level SDK `Server` one downstream session (or one 2026-07-28 request) talks to:
 * tools of `profile`, resources and templates of every admitted upstream under wrapped URIs,
 * prompts under `<server>__<prompt>`, completions, and `logging/setLevel`. Every call is a
 * {@link DownstreamCall} run as the caller of its upstream calls, so progress, cancellation
 * and server→client requests stay with it.
 */
export function buildGatewayServer(
  core: GatewayCore,
  profile: GatewayProfile,
  session: DownstreamSession,
  serverInfo: Implementation,
): Server {
  const server = new Server(serverInfo, {
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    },
  });
  session.server ??= server;
  session.allowsServer ??= profile.allowsServer;
  session.profile ??= profile;
  const provider = core.provider;
  const separator = core.separator;

  server.setRequestHandler('tools/list', async () => ({
    tools: (await profile.tools(session.owner)).map(toMcpTool),
  }));

  server.setRequestHandler('tools/call', async (request, context) => {
    const { name } = request.params;
    if (session.era === 'modern') {
      const state = context.mcpReq.requestState<string>();
      if (typeof state === 'string') {
        const parked = core.takeParked(state, session.principal);
        if (parked === undefined) {
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            'requestState names no call waiting for input (unknown, answered or expired)',
          );
        }
        parked.resume((context.mcpReq.inputResponses ?? {}) as Record<string, unknown>);
        parked.logTo = (level, data, logger) => context.mcpReq.log(level, data, logger);
        return core.round(parked, context.mcpReq.signal);
      }
    }
    // Checked first: a gateway that is closing (or was stopped while its servers connected, and
    // so has no tools) refuses every new call the same way.
    if (core.closing)
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'the gateway is shutting down');
    const tool = await profile.tool(name, session.owner);
    if (tool === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const call = new DownstreamCall(
      session,
      () => capabilitiesOf(server, context),
      session.era === 'legacy' ? pushFor(context) : undefined,
    );
    const progressToken = context.mcpReq._meta?.progressToken;
    // Progress is sent in order and before the result, never after it: each notification
    // waits for the one before, and the result waits for the last.
    let progressSent: Promise<void> | undefined;
    const onUpdate =
      progressToken === undefined
        ? undefined
        : (update: ToolUpdate) => {
            if (update.progress === undefined) return;
            const params = { progressToken, ...update.progress };
            const send = () =>
              context.mcpReq.notify({ method: 'notifications/progress', params }).catch(() => {});
            progressSent = progressSent === undefined ? send() : progressSent.then(send);
          };
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const run = async (): Promise<CallToolResult> => {
      const result = await runAsCaller(call, () => tool.execute(call.id, args, call.signal, onUpdate));
      if (progressSent !== undefined) await progressSent;
      if (core.closing)
        throw new ProtocolError(ProtocolErrorCode.InternalError, 'the gateway is shutting down');
      return toCallToolResult(result);
    };
    core.beginCall(call);
    if (session.era === 'modern') {
      call.logTo = (level, data, logger) => context.mcpReq.log(level, data, logger);
      call.envelopeLogLevel = envelopeLogLevel(context);
      call.start(run);
      return core.round(call, context.mcpReq.signal);
    }
    // Cancelled by the client (`notifications/cancelled`) or by its HTTP connection closing
    // before the answer (a POST dropped without a DELETE).
    const signals = [context.mcpReq.signal, context.http?.req?.signal].filter(
      (signal) => signal !== undefined,
    );
    call.logTo = (level, data, logger) =>
      context.mcpReq.notify({ method: 'notifications/message', params: { level, data, logger } });
    const onAbort = () => call.cancel('the client cancelled the call');
    for (const signal of signals) signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await run();
    } finally {
      for (const signal of signals) signal.removeEventListener('abort', onAbort);
      core.endCall(call);
    }
  });

  /**
   * Runs a 2026-07-28 request's upstream read or prompt as a caller, so that the upstream logs
   * that arrive meanwhile reach it on its own stream, at its envelope level (and a 2026-07-28
   * upstream is asked for them at that level). It is not a tool call: no server→client request
   * is routed to it. A 2025-era session gets its logs by `logging/setLevel`, as before.
   */
  const withLogs = async <T>(context: ServerContext, run: () => Promise<T>): Promise<T> => {
    if (session.era !== 'modern') return run();
    const call = new DownstreamCall(session, () => undefined);
    call.logTo = (level, data, logger) => context.mcpReq.log(level, data, logger);
    call.envelopeLogLevel = envelopeLogLevel(context);
    core.beginCall(call);
    try {
      return await runAsCaller(call, run);
    } finally {
      core.endCall(call);
    }
  };

  server.setRequestHandler('resources/list', async () => {
    const { items, errors } = await provider.resources.listAll();
    for (const failure of errors) core.log(`resources of "${failure.server}": ${failure.error.message}`);
    return {
      resources: items
        .filter((item) => profile.allowsServer(item.server))
        .map(({ server: origin, ...item }) => ({ ...item, uri: wrapResourceUri(origin, item.uri) })),
    };
  });

  server.setRequestHandler('resources/templates/list', async () => {
    const { items } = await provider.resources.listAllTemplates();
    return {
      resourceTemplates: items
        .filter((item) => profile.allowsServer(item.server))
        .map(({ server: origin, ...item }) => ({
          ...item,
          uriTemplate: wrapResourceUri(origin, item.uriTemplate),
        })),
    };
  });

  const target = (uri: string) => {
    const origin = unwrapResourceUri(uri);
    if (
      origin === undefined ||
      !profile.allowsServer(origin.server) ||
      !provider.servers().includes(origin.server)
    )
      throw new ResourceNotFoundError(uri, `Resource not found: ${uri}`);
    return origin;
  };

  server.setRequestHandler('resources/read', async (request, context) => {
    const origin = target(request.params.uri);
    try {
      const contents = await withLogs(context, () =>
        provider.resources.read(origin.server, origin.uri, { signal: context.mcpReq.signal }),
      );
      return {
        contents: contents.map((item) => ({
          ...item,
          uri: wrapResourceUri(origin.server, item.uri),
        })) as never,
      };
    } catch (error) {
      if (McpToolsError.isInstance(error) && error.code === 'RESOURCE_NOT_FOUND')
        throw new ResourceNotFoundError(request.params.uri, error.message);
      throw protocolError(error);
    }
  });

  server.setRequestHandler('resources/subscribe', async (request) => {
    target(request.params.uri);
    await core.subscribe(session, request.params.uri).catch((error: unknown) => {
      throw protocolError(error);
    });
    return {};
  });

  server.setRequestHandler('resources/unsubscribe', async (request) => {
    await core.unsubscribe(session, request.params.uri);
    return {};
  });

  server.setRequestHandler('prompts/list', async () => {
    const { items } = await provider.prompts.listAll();
    return {
      prompts: items
        .filter((item) => profile.allowsServer(item.server))
        .map(({ server: origin, ...item }) => ({
          ...item,
          name: joinPromptName(origin, item.name, separator),
        })),
    };
  });

  const promptTarget = (name: string) => {
    const servers = provider.servers().filter(profile.allowsServer);
    const origin = splitPromptName(name, servers, separator);
    if (origin === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    return origin;
  };

  server.setRequestHandler('prompts/get', async (request, context) => {
    const origin = promptTarget(request.params.name);
    try {
      const result = await withLogs(context, () =>
        provider.prompts.get(origin.server, origin.prompt, request.params.arguments, {
          signal: context.mcpReq.signal,
        }),
      );
      return {
        ...(result.description === undefined ? {} : { description: result.description }),
        messages: result.messages as never,
      };
    } catch (error) {
      throw protocolError(error);
    }
  });

  server.setRequestHandler('completion/complete', async (request, context) => {
    const { ref, argument } = request.params;
    const complete = provider.prompts.complete?.bind(provider.prompts);
    if (complete === undefined) return { completion: { values: [] } };
    let origin: {
      server: string;
      ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
    };
    if (ref.type === 'ref/prompt') {
      const prompt = promptTarget(ref.name);
      origin = { server: prompt.server, ref: { type: 'ref/prompt', name: prompt.prompt } };
    } else {
      const resource = target(ref.uri);
      origin = { server: resource.server, ref: { type: 'ref/resource', uri: resource.uri } };
    }
    try {
      const completion = await complete(
        origin.server,
        {
          ref: origin.ref,
          argument,
          ...(request.params.context ? { context: request.params.context } : {}),
        },
        { signal: context.mcpReq.signal },
      );
      return { completion: { ...completion } };
    } catch (error) {
      throw protocolError(error);
    }
  });

  server.setRequestHandler('logging/setLevel', async (request) => {
    session.logLevel = request.params.level;
    return {};
  });

  return server;
}
