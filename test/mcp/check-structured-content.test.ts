import { describe, expect, it } from 'vitest';
import { checkStructuredContent } from '../../src/mcp/check-structured-content.js';

const definition = {
  name: 'ask_user_structured',
  inputSchema: { type: 'object' as const },
  outputSchema: {
    type: 'object' as const,
    properties: { city: { type: 'string' } },
    required: ['city'],
  },
};
const text = [{ type: 'text' as const, text: 'city: Porto' }];

describe('checkStructuredContent (a relayed call of a tool with an output schema)', () => {
  it('accepts structured content that matches, an error result, and a tool without a schema', () => {
    expect(() =>
      checkStructuredContent(definition, { content: text, structuredContent: { city: 'Porto' } }),
    ).not.toThrow();
    expect(() => checkStructuredContent(definition, { content: text, isError: true })).not.toThrow();
    const { outputSchema: _none, ...plain } = definition;
    expect(() => checkStructuredContent(plain, { content: text })).not.toThrow();
  });

  it('refuses a result without structured content, or with content the schema rejects, as callTool does', () => {
    expect(() => checkStructuredContent(definition, { content: text })).toThrow(
      /has an output schema but did not return structured content/,
    );
    expect(() =>
      checkStructuredContent(definition, { content: text, structuredContent: { city: 7 } }),
    ).toThrow(/does not match the tool's output schema/);
  });
});
