/**
 * The gateway mounted in a Hono app through its web-standard face (`gateway.fetch`), beside the
 * app's own routes, then used by the MCP SDK's client:
 *
 *   npm run build && node --import tsx examples/gateway-in-hono.ts
 *
 * Any framework that hands over a `Request` and takes a `Response` mounts it the same way
 * (Express through `@hono/node-server`'s adapter or a `fetch` bridge, Bun, Deno, Workers).
 */
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Hono } from 'hono';
import { loadMcpServers, ToolRegistry } from 'mcptools';
import { createGateway } from 'mcptools/gateway';

const require = createRequire(import.meta.url);
const registry = new ToolRegistry();
const hub = await loadMcpServers(
  {
    servers: {
      everything: {
        type: 'stdio',
        command: process.execPath,
        args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
      },
    },
  },
  registry,
);
// The upstreams' sampling, elicitation and roots requests go to the client whose call caused them.
// allowedHosts: the Host header the gateway accepts besides loopback names (DNS rebinding guard).
const gateway = createGateway({ registry, hub });

const app = new Hono();
app.get('/', (context) => context.text('my app'));
app.all('/mcp', (context) => gateway.fetch(context.req.raw));
app.all('/mcp/*', (context) => gateway.fetch(context.req.raw));

const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
await new Promise((resolve) => server.once('listening', resolve));
const { port } = server.address() as AddressInfo;

const client = new Client({ name: 'example', version: '1.0.0' });
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  const { tools } = await client.listTools();
  const sum = await client.callTool({ name: 'everything__get-sum', arguments: { a: 2, b: 3 } });
  console.log(`${tools.length} tools through Hono; everything__get-sum → ${JSON.stringify(sum.content)}`);
  console.log(`the app's own route: ${await (await fetch(`http://127.0.0.1:${port}/`)).text()}`);
} finally {
  await client.close();
  await gateway.close();
  await hub.close();
  server.close();
}
