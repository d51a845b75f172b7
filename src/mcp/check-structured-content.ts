import {
  type CallToolResult,
  type JsonSchemaType,
  type Tool as McpToolDefinition,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/client';
import { sharedOutputValidator } from './shared-output-validator.js';

/**
 * The check `client.callTool` makes of a result against the tool's `outputSchema` (same
 * validator, same errors), for a call that cannot go through `callTool`: one sent with
 * `allowInputRequired` to relay a 2026-07-28 `input_required`, which `callTool` would check
 * against the schema as well. Throws a `ProtocolError` when the result does not satisfy it.
 */
export function checkStructuredContent(definition: McpToolDefinition, result: CallToolResult): void {
  const schema = definition.outputSchema as JsonSchemaType | undefined;
  if (schema === undefined || result.isError === true) return;
  let validator: ReturnType<typeof sharedOutputValidator.getValidator>;
  try {
    validator = sharedOutputValidator.getValidator(schema);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 200);
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Tool '${definition.name}' has an invalid outputSchema: ${message}`,
    );
  }
  if (result.structuredContent === undefined)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `Tool ${definition.name} has an output schema but did not return structured content`,
    );
  const checked = validator(result.structuredContent);
  if (!checked.valid)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Structured content does not match the tool's output schema: ${checked.errorMessage}`,
    );
}
