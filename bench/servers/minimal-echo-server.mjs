// A 2025-era (legacy) MCP stdio server with one `echo` tool, written against bare Node: it
// starts in a fraction of the CPU time of an SDK server (~0.1 s instead of ~0.3 s). The fan-out
// benchmark spawns up to 80 of these per timing on two cores; with SDK servers the timing would
// mostly measure the CPU contention of starting them, not the clients being compared.
//
//   node bench/servers/minimal-echo-server.mjs [--start-delay-ms N] [--tools N] [--annotations]
//
// `--tools N` lists N tools: `echo`, then `echo_1` … `echo_<N-1>`, each with a schema and a
// description of its own, all answering as `echo` does (the per-tool memory benchmark); with
// `--annotations` each copy carries behaviour hints, as every tool of the published filesystem
// and memory servers does.
//
// Like most servers published before 2026, it answers `server/discover` with "method not
// found", so clients in `auto` mode fall back to the `initialize` handshake.
import { createInterface } from 'node:readline';

const SUPPORTED = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const ECHO_TOOL = {
  name: 'echo',
  description: 'Echo the text back',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

const delayIndex = process.argv.indexOf('--start-delay-ms');
const startDelayMs = delayIndex === -1 ? 0 : Number(process.argv[delayIndex + 1]);
const toolsIndex = process.argv.indexOf('--tools');
const toolCount = toolsIndex === -1 ? 1 : Number(process.argv[toolsIndex + 1]);
const annotated = process.argv.includes('--annotations');
const TOOLS = [ECHO_TOOL];
for (let index = 1; index < toolCount; index++) {
  TOOLS.push({
    name: `echo_${index}`,
    description: `Echo the text back (copy ${index})`,
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: `Text for copy ${index}` } },
      required: ['text'],
    },
    ...(annotated ? { annotations: { readOnlyHint: true, openWorldHint: false } } : {}),
  });
}
const TOOL_NAMES = new Set(TOOLS.map((tool) => tool.name));
if (startDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, startDelayMs));

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

function answer(method, params) {
  switch (method) {
    case 'initialize': {
      const requested = params?.protocolVersion;
      return {
        protocolVersion: SUPPORTED.includes(requested) ? requested : SUPPORTED[0],
        capabilities: { tools: {} },
        serverInfo: { name: 'bench-minimal-echo', version: '1.0.0' },
      };
    }
    case 'ping':
      return {};
    case 'tools/list':
      return { tools: TOOLS };
    case 'tools/call':
      if (!TOOL_NAMES.has(params?.name))
        return { error: { code: -32602, message: `Unknown tool ${params?.name}` } };
      return { content: [{ type: 'text', text: String(params.arguments?.text ?? '') }] };
    default:
      return { error: { code: -32601, message: `Method not found: ${method}` } };
  }
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    send({ id: null, error: { code: -32700, message: 'Parse error' } });
    return;
  }
  if (message.id === undefined || message.method === undefined) return; // notifications, responses
  const result = answer(message.method, message.params);
  if (result.error) send({ id: message.id, error: result.error });
  else send({ id: message.id, result });
});
lines.on('close', () => process.exit(0));
