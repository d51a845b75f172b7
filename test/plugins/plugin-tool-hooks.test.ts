import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import type { ApprovalDecision, ApprovalRequest } from '../../src/pipeline/tool-call-hooks.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { loadOpenClawPlugins } from '../../src/plugins/load-openclaw-plugins.js';
import type { Tool } from '../../src/tool/tool.js';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';

const fixtures = fileURLToPath(new URL('../fixtures/plugins/', import.meta.url));

describe("a plugin's tool hooks over an MCP server's tools", () => {
  const requests: ApprovalRequest[] = [];
  let answer: ApprovalDecision = 'allow-once';
  const registry = new ToolRegistry({
    onApproval: (request) => {
      requests.push(request);
      return answer;
    },
  });
  let provider: McpToolHub;
  let unload: () => void;
  const tool = (name: string): Tool => registry.get(name)!;
  const log = async () => JSON.parse(textOf(await tool('policy_log').execute('log', {})));

  beforeAll(async () => {
    provider = await loadMcpServers({ servers: { echo: stdioFixture('echo') } }, registry);
    const loaded = await loadOpenClawPlugins([`${fixtures}tool-policy-plugin.mjs`], registry);
    unload = loaded.unload;
    expect(loaded.plugins[0]).toMatchObject({ status: 'loaded', id: 'tool-policy' });
    expect(loaded.plugins[0]!.hooks).toEqual([
      'before_tool_call',
      'before_tool_call',
      'before_tool_call',
      'before_tool_call',
      'before_tool_call',
      'before_tool_call',
      'after_tool_call',
      'tool_result_persist',
    ]);
  });

  afterAll(async () => {
    unload?.();
    await provider?.close();
  });

  it('blocks: the MCP call never goes out and the result is an isError with the reason', async () => {
    const result = await tool('echo__fail').execute('b1', { message: 'x' });
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result)).toBe('Tool echo__fail is blocked by policy');
  });

  it('rewrites: each handler sees the original params and the lowest priority rewrite wins', async () => {
    const result = await tool('echo__echo').execute('r1', { text: 'hello' });
    expect(textOf(result)).toBe('[low] hello');
  });

  it('asks: the first approval wins and freezes its params; a deny stops the call', async () => {
    answer = 'allow-once';
    const allowed = await tool('echo__add').execute('a1', { a: 1, b: 2 });
    expect(textOf(allowed)).toBe('42');
    expect(requests.at(-1)).toMatchObject({
      pluginId: 'tool-policy',
      title: 'Add numbers',
      description: 'Add 1 and 2?',
      severity: 'info',
      allowedDecisions: ['allow-once', 'deny'],
      toolName: 'echo__add',
      toolCallId: 'a1',
    });
    answer = 'deny';
    const denied = await tool('echo__add').execute('a2', { a: 1, b: 2 });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('Denied: Add numbers');
    // allow-always was not offered: answering it is no answer, and denies.
    answer = 'allow-always';
    const notOffered = await tool('echo__add').execute('a3', { a: 1, b: 2 });
    expect(textOf(notOffered)).toContain('Approval timed out');
    await new Promise((resolve) => setImmediate(resolve));
    expect((await log()).resolutions).toEqual(['allow-once', 'deny', 'timeout']);
  });

  it('fails closed when a hook times out, naming the plugin', async () => {
    const result = await tool('echo__slow').execute('t1', { ms: 1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      'before_tool_call handler from tool-policy failed: timed out after 50ms',
    );
  });

  it('lets after_tool_call observe final params and errors, and tool_result_persist redact', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    const { observed } = await log();
    expect(observed).toEqual(
      expect.arrayContaining([
        { toolName: 'echo__echo', params: { text: '[low] hello' }, hasDuration: true },
        {
          toolName: 'echo__fail',
          params: { message: 'x' },
          error: 'Tool echo__fail is blocked by policy',
          hasDuration: true,
        },
        { toolName: 'echo__add', params: { a: 40, b: 2 }, hasDuration: true },
      ]),
    );
    const persisted = registry.persistToolResult({
      toolName: 'echo__echo',
      toolCallId: 'r1',
      message: { role: 'toolResult', content: [{ type: 'text', text: 'secret' }] },
    });
    expect(persisted).toEqual({
      role: 'toolResult',
      content: [{ type: 'text', text: '[redacted by tool-policy]' }],
    });
  });

  it('takes the hooks out on unload', async () => {
    unload();
    const result = await tool('echo__fail').execute('u1', { message: 'now it runs' });
    expect(textOf(result)).toBe('now it runs');
  });
});
