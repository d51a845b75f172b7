/**
 * SEP-2243 custom headers (MCP 2026-07-28, Streamable HTTP): a tool argument whose schema
 * carries `x-mcp-header: "<Name>"` is mirrored by the client in an `Mcp-Param-<Name>` header,
 * so that intermediaries can route on it; the server MUST reject a call whose header is
 * missing, badly encoded or disagrees with the body. The SDK checks this for an `McpServer`
 * behind its own handler only; the gateway serves a low-level `Server`, so it checks here,
 * against the tool as it serves it (its upstream's schema).
 */

const HEADER_MISMATCH = -32020;
const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

interface Declaration {
  path: string[];
  header: string;
  type: string | undefined;
}

/** The `x-mcp-header` declarations of `schema`, reached through `properties` only (where SEP-2243 allows them). */
function declarations(schema: unknown, path: string[] = []): Declaration[] {
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as { properties?: unknown; type?: unknown; 'x-mcp-header'?: unknown };
  const found: Declaration[] = [];
  const header = node['x-mcp-header'];
  if (path.length > 0 && typeof header === 'string' && header !== '')
    found.push({ path, header, type: typeof node.type === 'string' ? node.type : undefined });
  if (node.properties !== null && typeof node.properties === 'object')
    for (const [key, child] of Object.entries(node.properties))
      found.push(...declarations(child, [...path, key]));
  return found;
}

/** A header value as the client meant it: literal, or the UTF-8 text of a `=?base64?…?=` sentinel (`undefined`: invalid). */
function decode(value: string): string | undefined {
  if (!value.startsWith(SENTINEL_START) || !value.endsWith(SENTINEL_END)) return value;
  const encoded = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length);
  if (!BASE64.test(encoded)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(encoded, 'base64'));
  } catch {
    return undefined;
  }
}

/**
 * The refusal of a `tools/call` whose `Mcp-Param-*` headers disagree with its `arguments`
 * under the tool's `schema` (HTTP 400, JSON-RPC `-32020` HeaderMismatch), or `undefined`.
 */
export function paramHeaderRefusal(
  schema: unknown,
  args: unknown,
  headers: Headers,
  id: unknown,
): Response | undefined {
  for (const { path, header, type } of declarations(schema)) {
    let value: unknown = args;
    for (const key of path)
      value =
        value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    const name = `Mcp-Param-${header}`;
    const raw = headers.get(name);
    const decoded = raw === null ? undefined : decode(raw.trim());
    const problem =
      raw === null
        ? `the body carries ${path.join('.')} but the ${name} header is absent`
        : decoded === undefined
          ? `the ${name} header carries an invalid Base64 value`
          : (type === 'integer' || type === 'number') && typeof value === 'number' && DECIMAL.test(decoded)
            ? Number(decoded) === value
              ? undefined
              : `the ${name} header disagrees with ${path.join('.')}`
            : decoded === String(value)
              ? undefined
              : `the ${name} header disagrees with ${path.join('.')}`;
    if (problem !== undefined)
      return Response.json(
        {
          jsonrpc: '2.0',
          id: typeof id === 'string' || typeof id === 'number' ? id : null,
          error: {
            code: HEADER_MISMATCH,
            message: `Bad Request: the request headers and body disagree: ${problem}`,
            data: { mismatch: { header: name } },
          },
        },
        { status: 400 },
      );
  }
  return undefined;
}

/**
 * The {@link paramHeaderRefusal} of a request `body` that is a `tools/call`, against the
 * parameters of the tool as `toolOf` finds it served to the caller; `undefined` for any other
 * request, or a tool the caller is not served (the call then fails as unknown).
 */
export async function toolCallParamRefusal(
  body: unknown,
  headers: Headers,
  toolOf: (name: string) => Promise<{ parameters: unknown } | undefined>,
): Promise<Response | undefined> {
  const call = body as { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown } };
  if (call?.method !== 'tools/call' || typeof call.params?.name !== 'string') return undefined;
  const tool = await toolOf(call.params.name);
  return tool && paramHeaderRefusal(tool.parameters, call.params.arguments, headers, call.id);
}
