import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { mcpToolsConfigJsonSchema } from '../../src/config/config-json-schema.js';

describe('mcpToolsConfigJsonSchema', () => {
  const validate = new Ajv2020({ strict: false }).compile(mcpToolsConfigJsonSchema());

  it('accepts the example configuration and rejects a misspelt key', () => {
    const example = {
      servers: {
        files: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
        },
        github: {
          type: 'streamable-http',
          url: 'https://api.example.com/mcp',
          tools: { deny: ['*delete*'] },
        },
        legacy: { type: 'sse', url: 'http://127.0.0.1:8080/sse', enabled: false },
        inferred: { command: 'node' },
      },
      namespace: { separator: '__', maxLength: 64 },
      router: { listMaxResources: 200, readMaxBytes: 262144 },
    };
    expect(validate(example)).toBe(true);
    expect(validate({ servers: { files: { comand: 'npx' } } })).toBe(false);
    expect(validate({ servers: {}, namspace: {} })).toBe(false);
  });
});
