import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway/create-gateway.js';
import type { GatewayOptions } from '../../src/gateway/gateway-options.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';

// A hub with one disabled server: nothing starts, and `/healthz` names the server only when the
// gateway serves this hub.
const registry = new ToolRegistry();
let hub: McpToolHub;

beforeAll(async () => {
  hub = await loadMcpServers(
    { servers: { parked: { type: 'stdio', command: 'never-started', enabled: false } } },
    registry,
    { eraCache: false },
  );
});

afterAll(async () => {
  await hub.close();
});

/** The server names `/healthz` of `options`' gateway lists. */
async function healthServers(options: GatewayOptions): Promise<string[]> {
  const gateway = createGateway(options);
  try {
    const { url } = await gateway.listen({ host: '127.0.0.1', port: 0 });
    const response = await fetch(new URL('/healthz', url));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { servers: { name: string }[] };
    return body.servers.map((server) => server.name);
  } finally {
    await gateway.close();
  }
}

describe('createGateway’s hub option', () => {
  it('serves the hub given as `hub`', async () => {
    expect(await healthServers({ registry, hub })).toEqual(['parked']);
  });

  it('still serves the hub given as the deprecated `provider`', async () => {
    expect(await healthServers({ registry, provider: hub })).toEqual(['parked']);
  });

  it('refuses options that name no hub, saying which option is missing', () => {
    expect(() => createGateway({ registry } as unknown as GatewayOptions)).toThrow(/needs `hub`/);
  });
});
