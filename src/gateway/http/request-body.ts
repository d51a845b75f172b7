import { jsonRpcError } from '../../http/json-rpc-error-response.js';
import { exceedsDepth } from '../../json/json-bounds.js';

/** Request bodies nest at most this deep (tens of thousands of levels overflowed the stack: 500). */
const MAX_BODY_DEPTH = 256;

/** The refusal of a body larger than `maxBytes` (413). */
export const tooLarge = (maxBytes: number): Response =>
  jsonRpcError(413, -32000, `Payload Too Large: Request body must not exceed ${maxBytes} bytes`);
const notJson = () => jsonRpcError(400, -32700, 'Parse error: the body is not JSON');
const tooDeep = () =>
  jsonRpcError(400, -32600, `Invalid Request: the body nests deeper than ${MAX_BODY_DEPTH} levels`);

/** `JSON.parse`, or `undefined` for text that is not JSON (or is empty). */
function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A request body's text as JSON, or the refusal (400) of text that is not JSON or nests too deep. */
export function parseRequestBody(text: string): unknown {
  const body = parseJson(text);
  if (body === undefined) return notJson();
  if (exceedsDepth(body, MAX_BODY_DEPTH)) return tooDeep();
  return body;
}
