import { CLIENT_CAPABILITIES_META_KEY, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { declaresTasks, TASKS_EXTENSION } from './created-tasks.js';
import type { CallOptions, TaskService } from './hub-types.js';
import type { McpConnection } from './mcp-connection.js';
import { usesCallerCredentials } from './principal-connections.js';
import { clientEra } from './sdk-era.js';
import type { ServerDirectory } from './server-directory.js';
import { callerMeta } from './server-requests.js';

/** Any JSON object: a tasks/* answer is the upstream's, passed on as it is. */
const anyObject: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'mcptools',
    validate(value) {
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value: value as Record<string, unknown> }
        : { issues: [{ message: 'the answer is not an object' }] };
    },
  },
};

/**
 * The tasks extension (SEP-2663) of the servers that offer it: whether a server does (a
 * 2026-07-28 shared connection whose server declares `io.modelcontextprotocol/tasks`), and its
 * `tasks/get`, `tasks/update` and `tasks/cancel`, sent with the extension declared in the
 * request's envelope (the server refuses them otherwise).
 */
export class McpTaskService implements TaskService {
  readonly #servers: ServerDirectory;

  constructor(servers: ServerDirectory) {
    this.#servers = servers;
  }

  offers(server: string): boolean {
    let connection: McpConnection;
    try {
      connection = this.#servers.get(server);
    } catch {
      return false; // removed meanwhile (a reload)
    }
    // A server reached with each caller's own credentials: its tasks would be asked for on the
    // shared connection, which is never a caller's access (as its resources and prompts).
    if (usesCallerCredentials(connection.config)) return false;
    const client = connection.client;
    return (
      client !== undefined &&
      clientEra(client) === '2026-07-28' &&
      declaresTasks(client.getServerCapabilities())
    );
  }

  async request(
    server: string,
    method: 'tasks/get' | 'tasks/update' | 'tasks/cancel',
    params: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>> {
    // Through the one routing decision: a server reached with each caller's own credentials
    // never takes part (see `offers`), and is refused here too rather than asked on the shared connection.
    const client = await this.#servers.client(server, options?.context);
    if (!this.#servers.isShared(server, client))
      throw new McpToolsError(
        'PERMISSION_DENIED',
        `server "${server}" uses each caller's own credentials: its tasks are not served`,
        {
          data: { server },
          recoverable: false,
        },
      );
    const logMeta = callerMeta(client, options?.context, false);
    const _meta = { ...logMeta, [CLIENT_CAPABILITIES_META_KEY]: { extensions: { [TASKS_EXTENSION]: {} } } };
    return this.#servers.request(
      server,
      client,
      options,
      (requestOptions) => client.request({ method, params: { ...params, _meta } }, anyObject, requestOptions),
      { method },
    );
  }
}
