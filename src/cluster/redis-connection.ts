import { McpToolsError } from '../errors/mcp-tools-error.js';
import { parseRedisUrl, redactRedisUrl } from './redis-url.js';

/** How long a connection attempt at start may take before the gateway gives up. */
const CONNECT_TIMEOUT_MS = 5000;
/** Between reconnection attempts once Redis went away. */
const RECONNECT_MS = 500;
/** Command options that arm no time limit (the client's default is 5 s per command). */
const NO_TIMEOUT = { timeout: 0 };

/**
 * The one Redis connection a replica keeps, as the cluster uses it: raw commands (each a
 * round trip, counted in the benchmark), whether Redis answers now, and `close`.
 * Commands fail at once while Redis is away (no offline queue): what needs Redis then
 * answers 503 instead of waiting.
 */
export interface RedisConnection {
  /** Sends one command (`['HGET', key, field]`) and resolves with its reply. */
  command(args: readonly string[]): Promise<unknown>;
  /**
   * Sends one command whose reply nobody waits for (a write that may be lost with Redis away):
   * no time limit armed for it (the client's per-command timer and its abort signal cost more
   * than the write), failures ignored. Commands of one connection reach Redis in the order sent.
   */
  send(args: readonly string[]): void;
  /** Whether the connection is up and Redis answered. */
  readonly ready: boolean;
  /**
   * How many times the connection became ready (1 after the first connect): a change means it
   * reconnected, perhaps to a Redis that lost its data, even when no command failed meanwhile.
   */
  readonly generation: number;
  /** A second connection for pub/sub (a subscribed connection takes no other commands). */
  subscriber(): Promise<RedisSubscriber>;
  /** Ends the connection (and any subscriber). Idempotent. */
  close(): Promise<void>;
}

/** A connection that listens on pub/sub channels. */
export interface RedisSubscriber {
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
}

interface SdkClient {
  isReady: boolean;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  connect(): Promise<unknown>;
  sendCommand(args: readonly string[], options?: { timeout?: number }): Promise<unknown>;
  duplicate(): SdkClient;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  destroy(): void;
  close?(): Promise<void>;
}

/**
 * Connects to the Redis at `url` (`redis://…` or `unix:///…`), loading `@redis/client` only
 * now (cluster mode). An unreachable server fails with an error that names the redacted URL.
 */
export async function connectRedis(url: string, log: (line: string) => void): Promise<RedisConnection> {
  const target = parseRedisUrl(url);
  const shown = redactRedisUrl(url);
  const { createClient } = await import('@redis/client');
  let connectedOnce = false;
  const socket = {
    connectTimeout: CONNECT_TIMEOUT_MS,
    // At start, one failure is final (the gateway exits); later, keep trying.
    reconnectStrategy: (_retries: number, cause: Error) => (connectedOnce ? RECONNECT_MS : cause),
  };
  const options =
    'url' in target
      ? { url: target.url, socket }
      : {
          socket: { ...socket, path: target.path },
          ...(target.database === undefined ? {} : { database: target.database }),
          ...(target.password === undefined ? {} : { password: target.password }),
        };
  const client = createClient({ ...options, disableOfflineQueue: true } as never) as unknown as SdkClient;
  let lastError = '';
  let generation = 0;
  client.on('ready', () => {
    generation++;
  });
  client.on('error', (error: Error) => {
    // One line per kind of failure, not one per reconnection attempt.
    if (connectedOnce && error.message !== lastError) log(`redis ${shown}: ${error.message}`);
    lastError = error.message;
  });
  try {
    await client.connect();
  } catch (error) {
    client.destroy();
    throw new McpToolsError(
      'CONNECTION_FAILED',
      `cluster mode: cannot reach Redis at ${shown}: ${error instanceof Error ? error.message : String(error)}`,
      { recoverable: false, cause: error },
    );
  }
  connectedOnce = true;
  const subscribers: SdkClient[] = [];
  let closed = false;
  return {
    command: (args) => client.sendCommand(args),
    send: (args) => {
      client.sendCommand(args, NO_TIMEOUT).catch(() => {});
    },
    get ready() {
      return client.isReady;
    },
    get generation() {
      return generation;
    },
    subscriber: async () => {
      const duplicate = client.duplicate();
      duplicate.on('error', () => {});
      await duplicate.connect();
      subscribers.push(duplicate);
      return { subscribe: (channel, listener) => duplicate.subscribe(channel, listener) };
    },
    close: async () => {
      if (closed) return;
      closed = true;
      for (const each of [client, ...subscribers]) {
        try {
          await each.close?.();
        } catch {
          each.destroy();
        }
      }
    },
  };
}
