import { randomBytes } from 'node:crypto';
import { type JSONRPCRequest, type Result, Server, type ServerContext } from '@modelcontextprotocol/server';

/** The private `_meta` key a 2025-era task answer rides under through the SDK's result check. */
const TASK_ANSWER_KEY = 'mcptools/taskAnswer';
/** Known to this process only: a tool result from anywhere else cannot pass itself off as a task answer. */
const NONCE = randomBytes(16).toString('base64url');

/**
 * A 2025-era `tools/call` answer that is a `CreateTaskResult` (`{ task }`), in the form the
 * gateway's handler returns it: a tool result the SDK accepts, carrying the task under a
 * private key (see {@link TaskAnsweringServer}).
 */
export function era2025TaskAnswer(task: Record<string, unknown>): Result {
  return { content: [], _meta: { [TASK_ANSWER_KEY]: { nonce: NONCE, task } } };
}

/**
 * The SDK's low-level `Server`, letting a 2025-era `tools/call` answer a task: the SDK (2.4)
 * has no task runtime and checks every `tools/call` result against `CallToolResult`, which
 * refuses a `CreateTaskResult`. So the handler returns {@link era2025TaskAnswer}, which passes
 * that check, and this server's wrapper (the SDK's hook for role-specific handling) answers its
 * `{ task }` instead. The key is removed from every other result; one that carries it with any
 * other nonce (an upstream's) is never taken for a task.
 */
export class TaskAnsweringServer extends Server {
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return wrapped;
    return async (request, ctx) => {
      const result = await wrapped(request, ctx);
      const meta = result._meta as Record<string, unknown> | undefined;
      if (meta === undefined || !(TASK_ANSWER_KEY in meta)) return result;
      const { [TASK_ANSWER_KEY]: carried, ...kept } = meta;
      const answer = carried as { nonce?: unknown; task?: unknown } | undefined;
      if (answer?.nonce === NONCE && typeof answer.task === 'object' && answer.task !== null)
        return { task: answer.task } as Result;
      return { ...result, _meta: kept };
    };
  }
}
