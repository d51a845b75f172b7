import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { toGeminiToolResult } from '../../src/providers/gemini-tool-result.js';
import { toOpenClawResult } from '../../src/tool/result.js';
import { stdioFixture, textOf } from './hub-test-helpers.js';

describe('hostile results from an upstream', () => {
  const registry = new ToolRegistry();
  let provider: McpToolHub;

  beforeAll(async () => {
    provider = await loadMcpServers(
      { servers: { bad: stdioFixture('hostile'), good: stdioFixture('echo', [], { protocol: '2025' }) } },
      registry,
      { connectTimeoutMs: 30_000, callTimeoutMs: 20_000 },
    );
  });

  afterAll(async () => {
    await provider?.close();
  });

  it('bounds a result nested 10,000 levels deep, with a notice, so nothing downstream throws', async () => {
    const result = await registry.get('bad__deep_result')!.execute('1', { depth: 10_000 });
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe(
      'deep\n[Omitted by mcptools: structuredContent nested deeper than 128 levels]',
    );
    expect(() => JSON.stringify(result)).not.toThrow();
    expect(() => JSON.stringify(toGeminiToolResult(result, 'deep_result'))).not.toThrow();
    expect(() => JSON.stringify(toOpenClawResult(result))).not.toThrow();
  });

  it('skips non-JSON and truncated lines on stdout and still answers', async () => {
    const result = await registry.get('bad__garbage_lines')!.execute('1', {});
    expect(textOf(result)).toBe('after garbage');
    expect(provider.status('bad')?.state).toBe('connected');
    expect(textOf(await registry.get('good__echo')!.execute('2', { text: 'unaffected' }))).toBe('unaffected');
  });
});
