/** An HTTP response carrying a JSON-RPC error with no request id (the request was refused whole). */
export function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}
