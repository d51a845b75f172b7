// The floor of a gateway built on the MCP SDK v2: the least a relay from Streamable HTTP to stdio
// servers can be with the SDK's own parts, for the call-path guard to measure mcptools' gateway
// against. One 2025-era session per client (the SDK's Node transport, a session id of its own);
// a low-level `Server` per session whose `tools/list` and `tools/call` go straight to one SDK
// `Client` per upstream (`<name>__<tool>`, split at the first `__`). No policies, telemetry,
// resumability, identities or checks of any kind: what is left is the two SDK legs a gateway
// cannot do without.
//
//   node bench/servers/sdk-relay.mjs <upstream name>=<command> [<args>…] …
//     e.g. e0=node,bench/servers/echo-server.mjs e1=…   (the command and its arguments split at commas)
//
// Prints `LISTENING <url>` on stderr once every upstream is connected.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest, Server } from '@modelcontextprotocol/server';

const upstreams = new Map(
  await Promise.all(
    process.argv.slice(2).map(async (spec) => {
      const [name, joined] = spec.split(/=(.*)/s);
      const [command, ...args] = joined.split(',');
      const client = new Client({ name: 'sdk-relay', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
      return [name, client];
    }),
  ),
);

function relayServer() {
  const server = new Server({ name: 'sdk-relay', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', async () => {
    const lists = await Promise.all(
      [...upstreams].map(async ([name, client]) =>
        (await client.listTools()).tools.map((tool) => ({ ...tool, name: `${name}__${tool.name}` })),
      ),
    );
    return { tools: lists.flat() };
  });
  server.setRequestHandler('tools/call', async (request) => {
    const at = request.params.name.indexOf('__');
    const client = upstreams.get(request.params.name.slice(0, at));
    if (at < 0 || client === undefined) throw new Error(`unknown tool ${request.params.name}`);
    return client.callTool({ ...request.params, name: request.params.name.slice(at + 2) });
  });
  return server;
}

const sessions = new Map();
const httpServer = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const id = req.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? sessions.get(id) : undefined;
  if (transport === undefined) {
    if (id !== undefined || !isInitializeRequest(body)) {
      res.writeHead(404).end('unknown session');
      return;
    }
    transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
    });
    transport.onclose = () => sessions.delete(transport.sessionId);
    await relayServer().connect(transport);
  }
  await transport.handleRequest(req, res, body);
});
httpServer.keepAliveTimeout = 120_000;
httpServer.listen(0, '127.0.0.1', () => {
  process.stderr.write(`LISTENING http://127.0.0.1:${httpServer.address().port}/mcp\n`);
});
// Exits at once: a client's standalone GET stream would hold `close()` open, and `--cpu-prof`
// writes its profile only on a normal exit.
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
