// A minimal MCP echo server for the benchmarks: plain .mjs so no TypeScript compile time counts.
//
//   node bench/servers/echo-server.mjs [--http] [--port N] [--era legacy|modern|both] [--start-delay-ms N]
//     [--output-schema]
//
// stdio by default; with --http it serves Streamable HTTP on 127.0.0.1 and prints
// `LISTENING <url>` on stderr. --start-delay-ms sleeps before serving, to imitate a
// server that is slow to start (npx, a JVM, a Python venv). --output-schema gives `echo` an
// output schema (`{ text: string }`) and returns the text as structured content too.
import { createServer } from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

const flags = new Map();
const argv = process.argv.slice(2);
for (let index = 0; index < argv.length; index++) {
  const arg = argv[index];
  if (!arg.startsWith('--')) continue;
  const next = argv[index + 1];
  if (next !== undefined && !next.startsWith('--')) {
    flags.set(arg.slice(2), next);
    index++;
  } else {
    flags.set(arg.slice(2), 'true');
  }
}
const era = flags.get('era') ?? 'both';
const startDelayMs = Number(flags.get('start-delay-ms') ?? 0);

// Schemas are built once: per-request HTTP instances would otherwise rebuild them per call.
const echoInput = z.object({ text: z.string() });
const echoOutput = flags.has('output-schema') ? z.object({ text: z.string() }) : undefined;

function createEchoServer() {
  const server = new McpServer({ name: 'bench-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the text back', inputSchema: echoInput, outputSchema: echoOutput },
    async ({ text }) =>
      echoOutput === undefined
        ? { content: [{ type: 'text', text }] }
        : { content: [{ type: 'text', text }], structuredContent: { text } },
  );
  return server;
}

if (startDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, startDelayMs));

const handlerOptions = era === 'modern' ? { legacy: 'reject' } : {};
if (!flags.has('http')) {
  if (era === 'legacy') {
    const { StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
    await createEchoServer().connect(new StdioServerTransport());
  } else {
    serveStdio(createEchoServer, handlerOptions);
  }
} else {
  // Imported only here: the Node HTTP adapter alone costs ~0.3 s of CPU to load, which every
  // stdio server of the fan-out benchmark would otherwise pay.
  const { toNodeHandler } = await import('@modelcontextprotocol/node');
  const handler = toNodeHandler(createMcpHandler(createEchoServer, handlerOptions));
  const httpServer = createServer((req, res) => {
    if (!req.url?.startsWith('/mcp')) {
      res.writeHead(404).end('Not found');
      return;
    }
    void handler(req, res);
  });
  // Idle keep-alive sockets closed by the server while a client reuses them surface as ECONNRESET
  // under load; a long timeout keeps that race out of the measurements.
  httpServer.keepAliveTimeout = 120_000;
  httpServer.listen(Number(flags.get('port') ?? 0), '127.0.0.1', () => {
    const { port } = httpServer.address();
    process.stderr.write(`LISTENING http://127.0.0.1:${port}/mcp\n`);
  });
  const stop = () => httpServer.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
