import {
  type CallToolRequest,
  type CallToolResult,
  type GetPromptResult,
  type Implementation,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { executeWith } from '../tool/execute-with.js';
import type { Tool, ToolUpdate } from '../tool/tool.js';
import { approvalThroughCaller } from './calls/gateway-approval.js';
import { toProtocolError } from './calls/protocol-error.js';
import { serveDownstreamCall, type UpstreamWork } from './calls/serve-downstream-call.js';
import { registerEra2025ScriptTasks, scriptTaskAsked, startScriptTask } from './calls/serve-script-tasks.js';
import { TaskAnsweringServer } from './calls/task-answering-server.js';
import { createdTaskAnswer, registerTasksPassthrough } from './calls/tasks-passthrough.js';
import { toCallToolResult } from './calls/tool-result-wire.js';
import type { GatewayCore } from './gateway-core.js';
import type { GatewayProfile } from './profiles/gateway-profile.js';
import { toMcpTool } from './profiles/mcp-tool-definition.js';
import { registerResourceHandlers, resourceScope } from './resources/gateway-resource-handlers.js';
import { joinPromptName, splitPromptName } from './resources/prompt-names.js';
import { presentLinks } from './resources/resource-links.js';
import { locateTemplate } from './resources/resource-routing.js';
import {
  type DownstreamSession,
  requestSession,
  sessionContext,
  stateBinding,
} from './sessions/downstream-session.js';

/**
 * The low-level SDK `Server` one downstream session (or one 2026-07-28 request) talks to:
 * tools of `profile`, resources and templates of every admitted upstream under their own URIs
 * (shared ones qualified: `registerResourceHandlers`),
 * prompts under `<server>__<prompt>`, completions, and `logging/setLevel`. Every
 * `tools/call`, `resources/read` and `prompts/get` is a call (`serveDownstreamCall`) run as the
 * caller of its upstream requests, so progress, logs, cancellation and server→client requests
 * stay with it. `method`: the one request method this server will serve (a 2026-07-28 request's
 * server serves one message): only its handler is registered, not the other ten, each a few
 * closures and a schema wrapper per request. Capabilities and the task handlers stay as they are.
 */
export function buildGatewayServer(
  core: GatewayCore,
  profile: GatewayProfile,
  session: DownstreamSession,
  serverInfo: Implementation,
  method?: string,
): Server {
  const server = new TaskAnsweringServer(serverInfo, {
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    },
    // A 2026-07-28 retry's sealed state is opened before its handler runs; one that does not
    // open (tampered, expired, another principal, client or method) gets -32602 with no reason.
    requestState: {
      verify: (state, context) => core.openRequestState(state, stateBinding(session, context.mcpReq.method)),
    },
  });
  session.server ??= server;
  session.allowsServer ??= profile.allowsServer;
  session.profile ??= profile;
  const hub = core.hub;
  const separator = core.separator;

  // Each request is seen with the token presented on it (its scopes, claims, owner flag).
  const seen = (context: ServerContext) => requestSession(session, context.http?.authInfo);
  // Where this function's handlers are registered: the server, or only `method`'s when it serves that alone.
  const handlers: Pick<Server, 'setRequestHandler'> =
    method === undefined
      ? server
      : {
          setRequestHandler: ((name: string, ...rest: unknown[]) => {
            if (name === method) (server.setRequestHandler as (...args: unknown[]) => void)(name, ...rest);
          }) as Server['setRequestHandler'],
        };

  handlers.setRequestHandler('tools/list', async (_request, context) => ({
    tools: (await profile.tools(seen(context))).map((tool) => {
      const listed = toMcpTool(tool);
      // A 2025-era caller may ask for run_script as a task (the 2026-07-28 extension needs no flag).
      return session.era === '2025' && profile.runsScripts(listed.name)
        ? { ...listed, execution: { taskSupport: 'optional' as const } }
        : listed;
    }),
  }));

  const scope = (context: ServerContext) => ({ core, server, session, context });

  /** The upstream work of a `tools/call` of `tool` (undefined: no such tool for this client). */
  const callTool = (
    params: CallToolRequest['params'],
    context: ServerContext,
    tool: Tool | undefined,
  ): UpstreamWork<CallToolResult> => {
    if (tool === undefined)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        // A tool held back by its pins is named as such (without the approve command: that is for an operator).
        hub.toolRefusal?.(params.name)?.message ?? `Unknown tool: ${params.name}`,
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
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    return async (call) => {
      // One upstream call serves this one: its own input_required can go to the client as it is.
      if (tool.source === 'mcp' && tool.server !== undefined) {
        call.relayFor(tool.server);
        // …and, when it offers tasks and the client declared the extension, it may answer a task.
        if (hub.tasks?.offers(tool.server)) call.passTasks();
      }
      // Approvals asked by hooks and policies go to this call's client, attributed to its principal.
      const result = await executeWith(tool, args, {
        ...call.context(),
        onApproval: approvalThroughCaller(call),
        // A script of this call waiting for an approval holds its sandbox: counted per principal.
        parkScript: (bytes) => core.parkedScripts.hold(call.caller.principal, bytes),
        ...(onUpdate === undefined ? {} : { onUpdate }),
      });
      if (progressSent !== undefined) await progressSent;
      const wire = toCallToolResult(result);
      // An upstream's CreateTaskResult (tasks extension) goes to the caller under a routable task id.
      if (tool.source === 'mcp' && tool.server !== undefined) {
        const task = createdTaskAnswer(core, server, session, context, tool.server, wire);
        if (task !== undefined) return task as never;
      }
      // The URIs an upstream's result hands out read back through the gateway, under these names.
      if (tool.source === 'mcp' && tool.server !== undefined)
        wire.content = await presentLinks(
          () => resourceScope(core, profile, seen(context)),
          tool.server,
          wire.content,
        );
      return wire;
    };
  };

  handlers.setRequestHandler('tools/call', async (request, context) => {
    // A run_script the caller asked to run as a task: answered at once, the script runs on.
    const task = scriptTaskAsked(server, session, profile, request.params, context);
    if (task !== undefined) {
      const viewer = seen(context);
      const tool =
        profile.listedTool(request.params.name, viewer)?.tool ??
        (await profile.tool(request.params.name, viewer));
      return startScriptTask(scope(context), callTool(request.params, context, tool), task.ttl) as never;
    }
    return serveDownstreamCall(
      scope(context),
      'tools/call',
      () => {
        const { name } = request.params;
        // The listed tools are read without waiting once listed (every call but the first ones).
        const viewer = seen(context);
        const listed = profile.listedTool(name, viewer);
        if (listed !== undefined) return callTool(request.params, context, listed.tool);
        return profile.tool(name, viewer).then((tool) => callTool(request.params, context, tool));
      },
      { name: request.params.name, arguments: request.params.arguments },
    );
  });

  if (method === undefined || method.startsWith('resources/'))
    registerResourceHandlers(server, core, profile, session);
  registerTasksPassthrough(server, core, profile, session);
  registerEra2025ScriptTasks(server, core, profile, session);

  handlers.setRequestHandler('prompts/list', async (_request, context) => {
    // Listed for this session's caller: a per-caller server lists theirs, or nothing.
    const viewer = seen(context);
    const { items } = await hub.prompts.listAll({
      context: sessionContext(viewer, context.mcpReq.signal),
    });
    return {
      prompts: items
        .filter((item) => profile.serves(item.server, viewer))
        .map(({ server: origin, ...item }) => ({
          ...item,
          name: joinPromptName(origin, item.name, separator),
        })),
    };
  });

  const promptTarget = (name: string, viewer: DownstreamSession) => {
    const servers = hub.servers().filter((server) => profile.serves(server, viewer));
    const origin = splitPromptName(name, servers, separator);
    if (origin === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    return origin;
  };

  handlers.setRequestHandler('prompts/get', (request, context) =>
    serveDownstreamCall(
      scope(context),
      'prompts/get',
      async () => {
        const origin = promptTarget(request.params.name, seen(context));
        return async (call): Promise<GetPromptResult> => {
          call.relayFor(origin.server);
          try {
            const result = await hub.prompts.get(origin.server, origin.prompt, request.params.arguments, {
              signal: call.signal,
              context: call.context(),
            });
            const contents = await presentLinks(
              () => resourceScope(core, profile, seen(context)),
              origin.server,
              result.messages.map((message) => message.content),
            );
            return {
              ...(result.description === undefined ? {} : { description: result.description }),
              messages: result.messages.map((message, position) => ({
                ...message,
                content: contents[position],
              })) as never,
            };
          } catch (error) {
            throw toProtocolError(error);
          }
        };
      },
      { name: request.params.name, arguments: request.params.arguments },
    ),
  );

  handlers.setRequestHandler('completion/complete', async (request, context) => {
    const { ref, argument } = request.params;
    const complete = hub.prompts.complete?.bind(hub.prompts);
    if (complete === undefined) return { completion: { values: [] } };
    let origin: {
      server: string;
      ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
    };
    if (ref.type === 'ref/prompt') {
      const prompt = promptTarget(ref.name, seen(context));
      origin = { server: prompt.server, ref: { type: 'ref/prompt', name: prompt.prompt } };
    } else {
      const resource = await locateTemplate(
        resourceScope(core, profile, seen(context)),
        ref.uri,
        context.mcpReq.signal,
      ).catch((error: unknown) => {
        throw toProtocolError(error);
      });
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
        { signal: context.mcpReq.signal, context: sessionContext(seen(context), context.mcpReq.signal) },
      );
      return { completion: { ...completion } };
    } catch (error) {
      throw toProtocolError(error);
    }
  });

  handlers.setRequestHandler('logging/setLevel', async (request) => {
    session.logLevel = request.params.level;
    session.onChange?.();
    return {};
  });

  return server;
}
