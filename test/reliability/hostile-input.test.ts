import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';

describe('hostile tool arguments and resource URIs never reach an upstream', () => {
  const registry = new ToolRegistry();
  let provider: McpToolHub;

  beforeAll(async () => {
    provider = await loadMcpServers(
      {
        servers: {
          big: stdioFixture('big', ['--era', 'legacy']),
          echo: stdioFixture('echo', [], { protocol: '2025' }),
        },
      },
      registry,
    );
  });

  afterAll(async () => {
    await provider?.close();
  });

  const sunk = async () => textOf(await registry.get('big__sink_count')!.execute('count', {}));

  it('refuses arguments that do not match the schema, naming the field', async () => {
    const result = await registry.get('echo__echo')!.execute('1', { text: 5 });
    expect(result.details).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect(textOf(result)).toMatch(/text/);
  });

  it('refuses 100 MB and 10,000-level arguments before sending', async () => {
    const huge = await registry.get('big__sink')!.execute('1', { data: 'x'.repeat(100 * 1024 * 1024) });
    expect(textOf(huge)).toContain('larger than 10.0 MiB (maxArgumentBytes)');
    let deep: unknown = 'leaf';
    for (let level = 0; level < 10_000; level++) deep = { a: deep };
    const nested = await registry.get('big__sink')!.execute('2', { data: deep });
    expect(textOf(nested)).toContain('nested deeper than 128 levels');
    expect(await sunk()).toBe('0');
  });

  it('refuses __proto__ and constructor.prototype keys, and nothing is polluted', async () => {
    for (const text of [
      '{"data":1,"__proto__":{"polluted":"yes"}}',
      '{"data":{"nested":[{"__proto__":{"polluted":"yes"}}]}}',
      '{"data":{"constructor":{"prototype":{"polluted":"yes"}}}}',
    ]) {
      const result = await registry.get('big__sink')!.execute('1', JSON.parse(text));
      expect(result.details).toMatchObject({ code: 'INVALID_ARGUMENTS' });
      expect(textOf(result)).toContain('prototype pollution');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(await sunk()).toBe('0');
  });

  it.each([
    'file:///tmp/../../etc/passwd',
    'file:///tmp/%2e%2e/%2E%2E/etc/passwd',
    'echo://static/..\\..\\secret',
    'javascript:alert(1)',
    'data:text/plain,hello',
    'no scheme at all',
    'echo://static/hello\u0000.txt',
    `echo://static/${'a'.repeat(10_000)}`,
  ])('refuses the resource URI %j with INVALID_URI', async (uri) => {
    const error = await provider.resources.read('echo', uri).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(McpToolsError.isInstance(error)).toBe(true);
    expect((error as McpToolsError).code).toBe('INVALID_URI');
  });

  it('still reads an ordinary resource', async () => {
    const contents = await provider.resources.read('echo', 'echo://static/hello');
    expect(contents[0]?.text).toBe('hello');
  });
});
