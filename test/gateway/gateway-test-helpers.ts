import {
  Client,
  type ClientCapabilities,
  type FetchLike,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import type { McpToolsConfig } from '../../src/config/config-types.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import type { GatewaySettings } from '../../src/gateway/gateway-options.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';

/** A gateway over `config`'s servers, listening on 127.0.0.1 (any port unless `port` is given). */
export interface RunningGateway {
  gateway: Gateway;
  registry: ToolRegistry;
  hub: McpToolHub;
  url: string;
  close(): Promise<void>;
}

export async function startGateway(
  config: McpToolsConfig,
  options: Partial<GatewaySettings> = {},
  port = 0,
): Promise<RunningGateway> {
  const registry = options.registry ?? new ToolRegistry();
  // No server-request handlers: createGateway routes them (gateway-library-routing.e2e.test.ts).
  const hub = await loadMcpServers(config, registry, {
    reconnect: { initialDelayMs: 100, maxDelayMs: 500 },
    // Test files run in parallel on a shared machine: a fixture's start can take most of the default 30 s.
    connectTimeoutMs: 50_000,
  });
  const gateway = createGateway({ registry, hub, config, ...options });
  const { url } = await gateway.listen({ host: '127.0.0.1', port });
  return {
    gateway,
    registry,
    hub,
    url,
    close: async () => {
      await gateway.close();
      await hub.close();
    },
  };
}

/** Asserts that every server of `hub` is connected, naming any that is not and why. */
export function expectAllConnected(hub: McpToolHub): void {
  expect(hub.status().map((status) => [status.name, status.state, status.lastError?.message])).toEqual(
    hub.status().map((status) => [status.name, 'connected', undefined]),
  );
}

/**
 * A downstream client that declares elicitation, sampling and roots and answers each with
 * `city` (after `before`, when given): the elicited city, a sampled text, a root.
 */
export function cityClient(
  url: string,
  era: 'modern' | 'legacy',
  city: string,
  before?: () => Promise<void>,
) {
  return connectClient(url, era, {
    capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
    prepare: (client) => {
      client.setRequestHandler('elicitation/create', async () => {
        await before?.();
        return { action: 'accept', content: { city } };
      });
      client.setRequestHandler('sampling/createMessage', async () => ({
        role: 'assistant',
        content: { type: 'text', text: `sampled by ${city}` },
        model: 'test',
      }));
      client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: `file:///${city}` }] }));
    },
  });
}

/** The two downstream eras: a 2026-07-28 client (auto negotiation) and a default 2025 client. */
export const eras = [
  { label: '2026-07-28 client', era: 'modern' as const },
  { label: '2025-era client', era: 'legacy' as const },
];

/** An SDK v2 client of `url` in `era`, with optional capabilities and handlers. */
export async function connectClient(
  url: string,
  era: 'modern' | 'legacy',
  options: {
    capabilities?: ClientCapabilities;
    prepare?: (client: Client) => void;
    headers?: Record<string, string>;
    /** The fetch the client's transport sends with (to watch a request leave). */
    fetch?: FetchLike;
  } = {},
): Promise<Client> {
  const client = new Client(
    { name: 'gateway-test', version: '1.0.0' },
    {
      ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
      ...(options.capabilities ? { capabilities: options.capabilities } : {}),
    },
  );
  options.prepare?.(client);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      ...(options.headers ? { requestInit: { headers: options.headers } } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
  );
  return client;
}

/**
 * A fetch for `connectClient` that notes when a 2025 client's GET stream, where unsolicited
 * notifications go and which it opens after connecting, got its response: wait for `open()`
 * before causing a notification the client must hear, instead of waiting a fixed time.
 */
export function watchGetStream(): { fetch: FetchLike; open: () => boolean } {
  let open = false;
  const watched: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    if ((init?.method ?? 'GET').toUpperCase() === 'GET' && response.ok) open = true;
    return response;
  };
  return { fetch: watched, open: () => open };
}

/** Counts the tool list changes `client` hears (a 2026 client listens for them). */
export async function watchToolChanges(client: Client, era: 'modern' | 'legacy'): Promise<() => number> {
  let changes = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    changes++;
  });
  if (era === 'modern') await client.listen({ toolsListChanged: true });
  return () => changes;
}

/** The names of the tools `client` is served. */
export const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
