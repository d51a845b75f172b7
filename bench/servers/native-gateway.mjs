// The gateway with no MCP upstream: `createGateway` (the built library) serving one native
// `echo` tool over HTTP on 127.0.0.1, for `bench/profile-gateway.mjs --target=native`. Against
// the SDK echo server over HTTP it isolates what the gateway's HTTP face, SDK server and
// registry path cost per call; against the gateway in front of stdio upstreams, what the
// upstream hop costs.
//
//   node bench/servers/native-gateway.mjs [path of the build's index.js]
//
// Prints `listening on <url>` on stderr (as `mcptools serve --http` does); SIGTERM closes it.
import { pathToFileURL } from 'node:url';

const index = process.argv[2] ?? new URL('../../dist/index.js', import.meta.url).href;
const { createGateway, loadMCPServers, ToolRegistry } = await import(
  index.startsWith('file:') ? index : pathToFileURL(index).href
);

const registry = new ToolRegistry();
registry.register({
  name: 'echo',
  description: 'Echo the text back',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: async (_id, params) => ({ content: [{ type: 'text', text: String(params.text) }] }),
});
const provider = await loadMCPServers({ servers: {} }, registry);
const gateway = createGateway({
  registry,
  provider,
  log: (line) => process.stderr.write(`native-gateway: ${line}\n`),
});
await gateway.listen({ host: '127.0.0.1', port: 0 });
const stop = async () => {
  await gateway.close();
  await provider.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
