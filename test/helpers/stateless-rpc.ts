/** The tasks extension's name, as a 2026-07-28 client declares it in its capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Client capabilities that declare the tasks extension. */
export const DECLARING_TASKS = { extensions: { [TASKS_EXTENSION]: {} } };

/** What a stateless request's answer holds, loosely: the tests read the fields they assert. */
export interface StatelessAnswer {
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the result fields its method defines.
  result?: any;
  // biome-ignore lint/suspicious/noExplicitAny: and the error's code, message and data.
  error?: any;
}

/**
 * One stateless 2026-07-28 JSON-RPC request POSTed to `url`: the routing headers (`Mcp-Method`,
 * and `Mcp-Name` from the params' `name` or `taskId`), the envelope in `params._meta` (the
 * protocol version, `capabilities`, a client name, and any `_meta` of `params` after them), and
 * `headers` (a bearer token). The answer is read from a JSON body or the stream's first event.
 */
export async function statelessRpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: { capabilities?: object; headers?: Record<string, string>; client?: string } = {},
): Promise<{ status: number; body: StatelessAnswer }> {
  const name = typeof params.name === 'string' ? params.name : params.taskId;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      ...options.headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? DECLARING_TASKS,
          'io.modelcontextprotocol/clientInfo': {
            name: options.client ?? 'stateless-test',
            version: '1.0.0',
          },
          ...(params._meta as object | undefined),
        },
      },
    }),
  });
  const text = await response.text();
  const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
  return { status: response.status, body: JSON.parse(data) as StatelessAnswer };
}
