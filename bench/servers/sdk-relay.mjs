// The floor of a gateway built on the MCP SDK v2: the least a relay from Streamable HTTP to stdio
// servers can be with the SDK's own parts, for the call-path guard to measure mcptools' gateway
// against. A low-level `Server` whose `tools/list` and `tools/call` go straight to one SDK
// `Client` per upstream (`<name>__<tool>`, split at the first `__`). No policies, telemetry,
// resumability, identities or checks of any kind: what is left is the two SDK legs a gateway
// cannot do without. By default it serves the 2025 era: one session per client (the SDK's Node
// transport, a session id of its own, a `Server` per session), its upstream clients in their
// default mode. `--era=2026-07-28` serves the 2026-07-28 era as the SDK serves it
// (`createMcpHandler`, a `Server` per request, 2025-era requests refused), its upstream clients
// negotiating 2026-07-28 (`auto`).
//
//   node bench/servers/sdk-relay.mjs [--era=2026-07-28] <upstream name>=<command>[,<arg>…] …
//     e.g. e0=node,bench/servers/echo-server.mjs e1=…   (the command and its arguments split at commas)
//
// Prints `LISTENING <url>` on stderr once every upstream is connected.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isInitializeRequest, Server } from '@modelcontextprotocol/server';

const modern = process.argv.includes('--era=2026-07-28');
const upstreams = new Map(
  await Promise.all(
    process.argv
      .slice(2)
      .filter((arg) => !arg.startsWith('--'))
      .map(async (spec) => {
        const [name, joined] = spec.split(/=(.*)/s);
        const [command, ...args] = joined.split(',');
        const client = new Client(
          { name: 'sdk-relay', version: '1.0.0' },
          modern ? { versionNegotiation: { mode: 'auto' } } : undefined,
        );
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
    return client.callTool({ name: request.params.name.slice(at + 2), arguments: request.params.arguments });
  });
  return server;
}

const sessions = new Map();
/** Serves a 2025-era request on its session's transport, made at `initialize`. */
async function serveSession(req, res) {
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
}

const serve = modern ? toNodeHandler(createMcpHandler(relayServer, { legacy: 'reject' })) : serveSession;
const httpServer = createServer((req, res) => void serve(req, res));
httpServer.keepAliveTimeout = 120_000;
httpServer.listen(0, '127.0.0.1', () => {
  process.stderr.write(`LISTENING http://127.0.0.1:${httpServer.address().port}/mcp\n`);
});
// Exits at once: a client's standalone GET stream would hold `close()` open, and `--cpu-prof`
// writes its profile only on a normal exit.
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
