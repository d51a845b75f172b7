import type { CallToolResult, StandardSchemaV1 } from '@modelcontextprotocol/client';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function problemOf(value: unknown): string | undefined {
  if (!isObject(value)) return 'not an object';
  const content = value.content;
  if (content !== undefined) {
    if (!Array.isArray(content)) return 'content is not an array';
    for (const block of content) {
      if (!isObject(block) || typeof block.type !== 'string') return 'a content block has no type';
    }
  }
  if (value.isError !== undefined && typeof value.isError !== 'boolean') return 'isError is not a boolean';
  if (value.structuredContent !== undefined && !isObject(value.structuredContent))
    return 'structuredContent is not an object';
  return undefined;
}

/**
 * The shape check mcptools needs of a `tools/call` result, as a Standard Schema for
 * `client.request()`: an object whose `content` is a list of typed blocks. It replaces the
 * SDK's full zod parse of every result (a sizeable share of a call's CPU) for tools without
 * an `outputSchema`; those with one still go through `client.callTool`, which validates
 * `structuredContent` against it.
 */
export const callToolResultSchema: StandardSchemaV1<unknown, CallToolResult> = {
  '~standard': {
    version: 1,
    vendor: 'mcptools',
    validate(value) {
      const problem = problemOf(value);
      return problem === undefined
        ? { value: value as CallToolResult }
        : { issues: [{ message: `invalid tools/call result: ${problem}` }] };
    },
  },
};
