// The SDK v1 client (`@modelcontextprotocol/sdk`, a devDependency: the client mcporter and
// LangChain's adapters run inside) as a benchmark side, speaking 2025 over stdio or Streamable HTTP.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

function textOf(result) {
  const text = result?.content?.[0]?.text;
  if (typeof text !== 'string' || result?.isError)
    throw new Error(`not an echo: ${JSON.stringify(result).slice(0, 200)}`);
  return text;
}

/** The `sdk-v1` side of lib/sides.mjs: one v1 `Client` per target, tools listed at open. */
export const sdkV1Side = {
  name: 'sdk-v1',
  async open(targets) {
    const clients = await Promise.all(
      targets.map(async (target) => {
        const client = new Client({ name: 'bench-sdk-v1', version: '1.0.0' });
        await client.connect(
          target.stdio
            ? new StdioClientTransport({
                command: target.stdio.command,
                args: target.stdio.args,
                stderr: 'ignore',
              })
            : new StreamableHTTPClientTransport(new URL(target.url)),
        );
        await client.listTools();
        return client;
      }),
    );
    return {
      era: 'legacy',
      call: async (index, text) =>
        textOf(await clients[index].callTool({ name: 'echo', arguments: { text } })),
      close: () => Promise.all(clients.map((client) => client.close().catch(() => {}))),
    };
  },
};
