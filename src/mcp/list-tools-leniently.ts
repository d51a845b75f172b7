import { type Client, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { z } from 'zod';

/** Every page of `tools/list` checked only as far as "an object with a `tools` array". */
const lenientPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
/** A hostile server could page forever. */
const MAX_PAGES = 1000;

/**
 * `true` when `client.listTools()` failed on the content of the answer rather than on the way
 * to it: the SDK's result validation refused it, or a definition nested so deep that
 * validation overflowed the stack. {@link listToolsLeniently} can still read such a list.
 */
export function isToolListContentFailure(error: unknown): boolean {
  return (
    error instanceof RangeError || (SdkError.isInstance(error) && error.code === SdkErrorCode.InvalidResult)
  );
}

/**
 * Lists a server's tools without validating each definition, for the screening that follows
 * (`screenToolDefinitions`): one hostile definition then costs that tool, not the server.
 */
export async function listToolsLeniently(
  client: Client,
  options: { signal?: AbortSignal; timeout: number },
): Promise<unknown[]> {
  const tools: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      lenientPage,
      options,
    );
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}
