/**
 * A 2025-era `initialize` JSON-RPC request as a raw HTTP test sends it, for the tests that open a
 * session without an SDK client (to read a status, a header or a refusal): no capabilities,
 * the client named `client`, at protocol `version`.
 */
export function initializeRequest(options: { id?: number; client?: string; version?: string } = {}): {
  jsonrpc: '2.0';
  id: number;
  method: 'initialize';
  params: Record<string, unknown>;
} {
  return {
    jsonrpc: '2.0',
    id: options.id ?? 1,
    method: 'initialize',
    params: {
      protocolVersion: options.version ?? '2025-11-25',
      capabilities: {},
      clientInfo: { name: options.client ?? 'raw', version: '1' },
    },
  };
}
