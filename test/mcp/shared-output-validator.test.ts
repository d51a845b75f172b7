import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { SharedOutputValidator, sharedOutputValidator } from '../../src/mcp/shared-output-validator.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { stdioFixture, textOf } from './hub-test-helpers.js';

const wants = (type: string, id?: string) => ({
  ...(id === undefined ? {} : { $id: id }),
  type: 'object' as const,
  properties: { n: { type } },
  required: ['n'],
});

describe('SharedOutputValidator', () => {
  it('compiles a schema once for every copy of it, and checks values against it', () => {
    const validator = new SharedOutputValidator();
    const first = validator.getValidator(wants('number'));
    expect(validator.getValidator(wants('number'))).toBe(first);
    expect(validator.size).toBe(1);
    expect(first({ n: 1 })).toMatchObject({ valid: true });
    expect(first({ n: 'one' })).toMatchObject({
      valid: false,
      errorMessage: expect.stringContaining('number'),
    });
  });

  it('checks each dialect as the SDK does: 2020-12 (formats too), draft-07, and refuses one it does not know', () => {
    const validator = new SharedOutputValidator();
    const email = { type: 'object' as const, properties: { to: { type: 'string', format: 'email' } } };
    const items = {
      type: 'object' as const,
      properties: { l: { prefixItems: [{ type: 'string' }], items: false } },
    };
    for (const declared of [{}, { $schema: 'https://json-schema.org/draft/2020-12/schema#' }]) {
      const check = validator.getValidator({ ...email, ...declared });
      expect(check({ to: 'not an address' }).valid).toBe(false);
      expect(check({ to: 'ada@example.com' }).valid).toBe(true);
      // 2020-12's prefixItems, which draft-07 does not know.
      const list = validator.getValidator({ ...items, ...declared });
      expect(list({ l: ['a', 'b'] }).valid).toBe(false);
      expect(list({ l: ['a'] }).valid).toBe(true);
    }
    const draft7 = validator.getValidator({
      ...wants('number'),
      $schema: 'http://json-schema.org/draft-07/schema#',
    });
    expect(draft7({ n: 'one' }).valid).toBe(false);
    expect(draft7({ n: 1 }).valid).toBe(true);
    expect(() => validator.getValidator({ ...wants('number'), $schema: 'urn:no-such-dialect' })).toThrow(
      /unsupported dialect/,
    );
  });

  it('keeps two schemas with the same $id apart', () => {
    const validator = new SharedOutputValidator();
    const numbers = validator.getValidator(wants('number', 'urn:mcptools:same'));
    const strings = validator.getValidator(wants('string', 'urn:mcptools:same'));
    expect(numbers({ n: 1 }).valid).toBe(true);
    expect(strings({ n: 1 }).valid).toBe(false);
    expect(strings({ n: 'one' }).valid).toBe(true);
  });

  it('keeps two schemas with the same nested $id apart', () => {
    const validator = new SharedOutputValidator();
    const nested = (type: string) => ({
      type: 'object' as const,
      properties: { n: { $id: 'urn:mcptools:nested', type } },
      required: ['n'],
    });
    const numbers = validator.getValidator(nested('number'));
    const strings = validator.getValidator(nested('string'));
    expect(numbers({ n: 1 }).valid).toBe(true);
    expect(strings({ n: 1 }).valid).toBe(false);
    expect(strings({ n: 'one' }).valid).toBe(true);
  });
});

describe('the clients of a hub share one output validator', () => {
  const registry = new ToolRegistry();
  let provider: McpToolHub;

  beforeAll(async () => {
    const typed = (type: string, id?: string) =>
      stdioFixture('hostile', ['--output-type', type, ...(id === undefined ? [] : ['--output-id', id])]);
    provider = await loadMcpServers(
      {
        servers: {
          numbers: typed('number'),
          twin: typed('number'),
          idNumbers: typed('number', 'urn:mcptools:typed'),
          idStrings: typed('string', 'urn:mcptools:typed'),
        },
      },
      registry,
    );
  });

  afterAll(async () => {
    await provider?.close();
  });

  const call = (server: string) => registry.get(`${server}__typed_output`)!.execute(`${server}-1`, {});

  it('checks results against each server’s own output schema, compiling alike schemas once', async () => {
    const start = sharedOutputValidator.size;
    const good = await call('numbers');
    expect(good.isError).toBeUndefined();
    expect(good.structuredContent).toEqual({ n: 1 });
    expect(sharedOutputValidator.size).toBe(start + 1);
    // The same schema from another server: compiled already.
    expect((await call('twin')).structuredContent).toEqual({ n: 1 });
    expect(sharedOutputValidator.size).toBe(start + 1);
    expect((await call('idNumbers')).structuredContent).toEqual({ n: 1 });
    // The same $id as idNumbers' schema, but it wants a string: { n: 1 } must fail here.
    const bad = await call('idStrings');
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/idStrings\/typed_output failed: .*output schema/i);
    expect(sharedOutputValidator.size).toBe(start + 3);
  });
});
