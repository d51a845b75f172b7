import { McpToolsError } from '../src/errors/mcp-tools-error.js';

/** The `McpToolsError` that `action` throws (or rejects with); anything else fails the test. */
export async function caughtMcpToolsError(action: () => unknown): Promise<McpToolsError> {
  try {
    await action();
  } catch (error) {
    if (McpToolsError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an McpToolsError');
}
