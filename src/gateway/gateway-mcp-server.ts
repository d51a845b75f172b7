import {
  type CallToolRequest,
  type CallToolResult,
  type GetPromptResult,
  type Implementation,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceNotFoundError,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { runInToolCallScope } from '../pipeline/tool-call-scope.js';
import type { Tool, ToolUpdate } from '../tool/tool.js';
import type { DownstreamSession } from './downstream-session.js';
import { approvalThroughCaller } from './gateway-approval.js';
import type { GatewayCore } from './gateway-core.js';
import type { GatewayProfile } from './gateway-profile.js';
import { joinPromptName, splitPromptName } from './prompt-names.js';
import { unwrapResourceUri, wrapResourceUri } from './resource-uri.js';
import { serveDownstreamCall, type UpstreamWork } from './serve-downstream-call.js';
import { toCallToolResult, toMcpTool } from './tool-result-wire.js';

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

/**
 * The low-level SDK `Server` one downstream session (or one 2026-07-28 request) talks to:
 * tools of `profile`, resources and templates of every admitted upstream under wrapped URIs,
 * prompts under `<server>__<prompt>`, completions, and `logging/setLevel`. Every
 * `tools/call`, `resources/read` and `prompts/get` is a call (`serveDownstreamCall`) run as the
 * caller of its upstream requests, so progress, logs, cancellation and server→client requests
 * stay with it.
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

  const scope = (context: ServerContext) => ({ core, server, session, context });

  /** The upstream work of a `tools/call` of `tool` (undefined: no such tool for this client). */
  const callTool = (
    params: CallToolRequest['params'],
    context: ServerContext,
    tool: Tool | undefined,
  ): UpstreamWork<CallToolResult> => {
    if (tool === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
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
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    return async (call) => {
      // Approvals asked by hooks and policies go to this call's client, attributed to its principal.
      const scope = { principal: session.principal, onApproval: approvalThroughCaller(call) };
      const result = await runInToolCallScope(scope, () =>
        tool.execute(call.id, args, call.signal, onUpdate),
      );
      if (progressSent !== undefined) await progressSent;
      return toCallToolResult(result);
    };
  };

  server.setRequestHandler('tools/call', (request, context) =>
    serveDownstreamCall(scope(context), 'tools/call', () => {
      const { name } = request.params;
      // The listed tools are read without waiting once listed (every call but the first ones).
      const listed = profile.listedTool(name, session.owner);
      if (listed !== undefined) return callTool(request.params, context, listed.tool);
      return profile.tool(name, session.owner).then((tool) => callTool(request.params, context, tool));
    }),
  );

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

  server.setRequestHandler('resources/read', (request, context) =>
    serveDownstreamCall(scope(context), 'resources/read', async () => {
      const origin = target(request.params.uri);
      return async (call): Promise<ReadResourceResult> => {
        try {
          const contents = await provider.resources.read(origin.server, origin.uri, { signal: call.signal });
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
      };
    }),
  );

  server.setRequestHandler('resources/subscribe', async (request) => {
    target(request.params.uri);
    await core.subscribe(session, request.params.uri).catch((error: unknown) => {
      throw protocolError(error);
    });
    session.onChange?.();
    return {};
  });

  server.setRequestHandler('resources/unsubscribe', async (request) => {
    await core.unsubscribe(session, request.params.uri);
    session.onChange?.();
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

  server.setRequestHandler('prompts/get', (request, context) =>
    serveDownstreamCall(scope(context), 'prompts/get', async () => {
      const origin = promptTarget(request.params.name);
      return async (call): Promise<GetPromptResult> => {
        try {
          const result = await provider.prompts.get(origin.server, origin.prompt, request.params.arguments, {
            signal: call.signal,
          });
          return {
            ...(result.description === undefined ? {} : { description: result.description }),
            messages: result.messages as never,
          };
        } catch (error) {
          throw protocolError(error);
        }
      };
    }),
  );

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
    session.onChange?.();
    return {};
  });

  return server;
}
