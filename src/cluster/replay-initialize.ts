import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/**
 * Rebuilds a 2025-era session on a fresh SDK transport (whose session id generator returns the
 * adopted id) through its public API only: the client's stored `initialize` request, then
 * `notifications/initialized`, each handed to `handleRequest` as the client once sent them. The
 * answers go nowhere: the client had them from the dead owner.
 */
export async function replayInitialize(
  transport: WebStandardStreamableHTTPServerTransport,
  initialize: unknown,
  url: string,
): Promise<void> {
  const answer = await transport.handleRequest(
    new Request(url, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(initialize) }),
    { parsedBody: initialize },
  );
  await answer.text();
  if (!answer.ok) throw new Error(`replaying the stored initialize failed with HTTP ${answer.status}`);
  const sessionId = answer.headers.get('mcp-session-id') ?? transport.sessionId ?? '';
  const params = (initialize as { params?: { protocolVersion?: unknown } }).params;
  const version = typeof params?.protocolVersion === 'string' ? params.protocolVersion : undefined;
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
  const done = await transport.handleRequest(
    new Request(url, {
      method: 'POST',
      headers: {
        ...JSON_HEADERS,
        'mcp-session-id': sessionId,
        ...(version ? { 'mcp-protocol-version': version } : {}),
      },
      body: JSON.stringify(initialized),
    }),
    { parsedBody: initialized },
  );
  await done.text();
}
