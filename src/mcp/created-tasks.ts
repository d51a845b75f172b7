import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { clientEra } from './sdk-era.js';

/** The tasks extension's id (SEP-2663): declared under `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * Where a 2026-07-28 upstream's `CreateTaskResult` rides through mcptools' tool-call pipeline:
 * a private `_meta` key of an otherwise empty tool result (see {@link admitCreatedTasks}). The
 * gateway takes it out again (`src/gateway/tasks-passthrough.ts`); an upstream that sends this
 * key itself has it removed, so only a real `resultType: "task"` ever carries it.
 */
export const CREATED_TASK_META_KEY = 'mcptools/createdTask';

/** Whether `capabilities` (a client's or a server's) declare the tasks extension. */
export function declaresTasks(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION in extensions;
}

function carryCreatedTask(message: JSONRPCMessage): JSONRPCMessage {
  const result = (message as { result?: unknown }).result;
  if (typeof result !== 'object' || result === null) return message;
  const fields = result as Record<string, unknown>;
  if (fields.resultType === 'task') {
    // An empty tool result the SDK accepts, carrying the task as the upstream sent it.
    const carried = { resultType: 'complete', content: [], _meta: { [CREATED_TASK_META_KEY]: fields } };
    return { ...message, result: carried } as JSONRPCMessage;
  }
  const meta = fields._meta;
  if (typeof meta === 'object' && meta !== null && CREATED_TASK_META_KEY in meta) {
    const { [CREATED_TASK_META_KEY]: _forged, ...kept } = meta as Record<string, unknown>;
    return { ...message, result: { ...fields, _meta: kept } } as JSONRPCMessage;
  }
  return message;
}

/**
 * On the connection of a 2026-07-28 upstream (`client` connected over `transport`), lets a
 * `CreateTaskResult` (`resultType: "task"`, SEP-2663) through: the SDK (2.4) refuses any
 * result type but `complete` and `input_required`, so the response is rewritten, before the
 * SDK reads it, into an empty tool result carrying the task under {@link CREATED_TASK_META_KEY}.
 * An upstream answers a task only to a caller that declared the extension (the gateway tells
 * it so only then), so nothing changes for anyone else. No-op on a 2025-era connection.
 */
export function admitCreatedTasks(client: Client, transport: Transport): void {
  if (clientEra(client) !== '2026-07-28') return;
  const receive = transport.onmessage;
  if (receive === undefined) return;
  transport.onmessage = (message, extra) => receive.call(transport, carryCreatedTask(message), extra);
}

/** The upstream `CreateTaskResult` a tool result carries (see {@link admitCreatedTasks}), if any. */
export function createdTaskOf(result: {
  _meta?: Record<string, unknown>;
}): Record<string, unknown> | undefined {
  const task = result._meta?.[CREATED_TASK_META_KEY];
  return typeof task === 'object' && task !== null ? (task as Record<string, unknown>) : undefined;
}
