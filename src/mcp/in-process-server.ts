import { AsyncResource } from 'node:async_hooks';
import {
  InMemoryTransport,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import type { ServerCommon, ServerConfig } from '../config/config-types.js';
import type { StderrTail } from './stderr-tail.js';

/**
 * An MCP server running in this process, handed to `loadMcpServers` as code (its
 * `inProcessServers` option), never read from a configuration file. It takes the settings every
 * server entry takes (timeouts, tool filter, prefix, protocol) and is connected, listed, called
 * and reconnected like any other server, over the SDK's in-memory transport.
 */
export interface InProcessServer extends ServerCommon {
  /**
   * Builds one server instance per connection, for the era it will serve (`context.era`): the
   * factory `serveStdio` and `createMcpHandler` take, so one factory serves both eras.
   */
  server: McpServerFactory;
}

/** How the hub holds an {@link InProcessServer} beside the configured servers. */
export interface InProcessServerConfig extends InProcessServer {
  type: 'in-process';
}

/** A server as the hub connects it: an entry of the configuration, or a server in this process. */
export type ConnectionConfig = ServerConfig | InProcessServerConfig;

/** The server side's module, loaded by the first in-process server. */
let serveModule: Promise<typeof import('@modelcontextprotocol/server/stdio')> | undefined;

/**
 * Starts a connection of `config.server` and returns the client's end of it. The server end is
 * served by the SDK's `serveStdio` (the era decision of a stdio server, over any transport), so
 * the server speaks the era the client negotiates, as a stdio child does. Its out-of-band errors
 * go to `stderr`, where a child's stderr would.
 */
export async function inProcessTransport(
  config: InProcessServerConfig,
  stderr: StderrTail,
): Promise<Transport> {
  serveModule ??= import('@modelcontextprotocol/server/stdio');
  const { serveStdio } = await serveModule;
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  serveStdio(config.server, {
    transport: new WireEnd(serverEnd),
    onerror: (error) => stderr.note(`${error.message}\n`),
  });
  return new WireEnd(clientEnd);
}

/**
 * One end of an in-memory pair that behaves like an end of a pipe: the other end receives each
 * message as JSON carries it (a copy: no object is shared with the server, `undefined` fields are
 * gone), and in the async context the pair was made in, never the sender's. A stdio pipe's
 * messages belong to no call; delivered in the sender's context, a server→client request would
 * find its caller where no real transport lets it.
 */
class WireEnd implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  readonly #end: InMemoryTransport;
  /** Runs a delivery in the context the end was made in. */
  readonly #inOwnContext = AsyncResource.bind((deliver: () => Promise<void>) => deliver());

  constructor(end: InMemoryTransport) {
    this.#end = end;
    end.onclose = () => this.onclose?.();
    end.onerror = (error) => this.onerror?.(error);
    end.onmessage = (message, extra) => this.onmessage?.(message, extra);
  }

  start(): Promise<void> {
    return this.#end.start();
  }

  close(): Promise<void> {
    return this.#end.close();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const copy = JSON.parse(JSON.stringify(message)) as JSONRPCMessage;
    return this.#inOwnContext(() => this.#end.send(copy, options));
  }
}
