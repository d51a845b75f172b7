// The reference side: the SDK's own Client talking directly to a server, no mcptools in between.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/**
 * Connects one SDK `Client` with the given era negotiation mode (`auto`, `legacy`, or
 * `default` = the SDK's default, which is `initialize` on one process) to a stdio command or
 * an HTTP URL. Returns the client and its era.
 */
export async function connectSdk({ stdio, url, mode }) {
  const client = new Client(
    { name: 'bench-sdk-direct', version: '1.0.0' },
    mode === 'default' ? undefined : { versionNegotiation: { mode } },
  );
  const transport = stdio
    ? new StdioClientTransport({ command: stdio.command, args: stdio.args, stderr: 'ignore' })
    : new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, era: client.getProtocolEra() };
}

/**
 * Connects one SDK `Client` (see {@link connectSdk}) and lists its tools. The tool list is kept
 * beside the client, as a user of the SDK keeps it to hand the tools to an agent (the client's
 * own response cache holds only its JSON text), so that the memory benchmarks compare like with
 * like: mcptools keeps every server's tools too.
 */
export async function connectAndListSdk(target, mode) {
  const { client } = await connectSdk({ ...target, mode });
  const { tools } = await client.listTools();
  if (tools.length === 0) throw new Error('SDK client: a server listed no tools');
  return { client, tools };
}

/** Connects to every server at once and lists each one's tools: the SDK-direct fan-out. */
export async function fanOutSdk(stdioCommands, mode) {
  return Promise.all(stdioCommands.map((stdio) => connectAndListSdk({ stdio }, mode)));
}

/** Closes every client of a {@link fanOutSdk}; errors on close are not what is measured. */
export async function closeSdkClients(connected) {
  await Promise.all(connected.map(({ client }) => client.close().catch(() => {})));
}
