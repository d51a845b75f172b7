import { describe, expect, it } from 'vitest';
import type { AfterToolCallEvent, ApprovalRequest } from '../../src/pipeline/tool-call-hooks.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import type { Tool, ToolResult } from '../../src/tool/tool.js';

/** A native tool that records the arguments it ran with and echoes them. */
function recordingTool(name = 'write_file'): Tool & { calls: Record<string, unknown>[] } {
  const calls: Record<string, unknown>[] = [];
  return {
    name,
    description: 'writes a file',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, mode: { type: 'string', enum: ['safe', 'fast'] } },
      required: ['path'],
    },
    calls,
    async execute(_id, params) {
      calls.push(params);
      return { content: [{ type: 'text', text: JSON.stringify(params) }] };
    },
  };
}

function textOf(result: ToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** Waits for fire-and-forget after-hooks. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the tool-call pipeline', () => {
  it('hands out the registered tool itself while no middleware is in place', async () => {
    const registry = new ToolRegistry();
    const tool = recordingTool();
    registry.register(tool);
    // The registry's own copy (with its defaults), not a wrapper: the same execute, no pipeline.
    expect(registry.get('write_file')!.execute).toBe(tool.execute);
    expect((await registry.resolveAll())[0]).toBe(registry.get('write_file'));
  });

  it('runs before-hooks by priority, each seeing the original params; the last rewrite wins', async () => {
    const registry = new ToolRegistry();
    const tool = recordingTool();
    registry.register(tool);
    const seen: string[] = [];
    registry.use({
      name: 'low',
      priority: 1,
      beforeToolCall: (event) => {
        seen.push(`low:${JSON.stringify(event.params)}`);
        return { params: { mode: 'fast' } };
      },
    });
    registry.use({
      name: 'high',
      priority: 10,
      beforeToolCall: (event) => {
        seen.push(`high:${JSON.stringify(event.params)}`);
        event.params.path = 'mutated'; // its own copy: nobody else sees this
        return { params: { mode: 'safe', path: '/tmp/high' } };
      },
    });
    registry.use({ name: 'other-tool', matcher: ['read_file'], beforeToolCall: () => ({ block: true }) });
    const result = await registry.get('write_file')!.execute('c1', { path: '/tmp/a' });
    expect(result.isError).toBeUndefined();
    expect(seen).toEqual(['high:{"path":"/tmp/a"}', 'low:{"path":"/tmp/a"}']);
    // `{ ...original, ...lastRewrite }`: low's rewrite wins, high's path is not kept.
    expect(tool.calls).toEqual([{ path: '/tmp/a', mode: 'fast' }]);
  });

  it('stops at block: true with the reason as an isError result; lower priorities never run', async () => {
    const registry = new ToolRegistry();
    const tool = recordingTool();
    registry.register(tool);
    let lowRan = false;
    registry.use({
      name: 'guard',
      priority: 5,
      beforeToolCall: () => ({ block: true, blockReason: 'no writes today' }),
    });
    registry.use({
      name: 'later',
      beforeToolCall: () => {
        lowRan = true;
      },
    });
    registry.use({ name: 'noop', priority: 9, beforeToolCall: () => ({ block: false }) });
    const events: AfterToolCallEvent[] = [];
    registry.use({ name: 'observer', afterToolCall: (event) => void events.push(event) });
    const result = await registry.get('write_file')!.execute('c2', { path: 'x' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('no writes today');
    expect(tool.calls).toEqual([]);
    expect(lowRan).toBe(false);
    await settle();
    expect(events[0]).toMatchObject({
      toolName: 'write_file',
      toolCallId: 'c2',
      outcome: 'blocked',
      error: 'no writes today',
      decisions: [{ by: 'guard', decision: 'block', reason: 'no writes today' }],
    });
    expect(events[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('checks rewritten params against the schema again and names the rewriter', async () => {
    const registry = new ToolRegistry();
    const tool = recordingTool();
    registry.register(tool);
    registry.use({ name: 'sloppy-plugin', beforeToolCall: () => ({ params: { mode: 'reckless' } }) });
    const result = await registry.get('write_file')!.execute('c3', { path: 'x' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('sloppy-plugin');
    expect(textOf(result)).toContain('mode');
    expect(tool.calls).toEqual([]);
  });

  it('fails closed on a hook that throws, times out or returns garbage, naming it', async () => {
    for (const [name, handler, expected] of [
      [
        'thrower',
        () => {
          throw new Error('boom');
        },
        'boom',
      ],
      ['sleeper', () => new Promise(() => undefined), 'timed out after 20ms'],
      ['garbage', () => 'yes please', 'returned string, not an object'],
      ['bad-params', () => ({ params: 'x' }), '"params" is not an object'],
    ] as const) {
      const registry = new ToolRegistry();
      const tool = recordingTool();
      registry.register(tool);
      const errors: string[] = [];
      registry.use({
        name,
        timeoutMs: 20,
        beforeToolCall: handler as never,
        onError: (message) => errors.push(message),
      });
      const result = await registry.get('write_file')!.execute('c4', { path: 'x' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('Tool call blocked because before_tool_call hook failed');
      expect(textOf(result)).toContain(`before_tool_call handler from ${name}`);
      expect(textOf(result)).toContain(expected);
      expect(errors[0]).toContain(name);
      expect(tool.calls).toEqual([]);
    }
  });

  it('denies an approval nobody can answer', async () => {
    const registry = new ToolRegistry();
    const tool = recordingTool();
    registry.register(tool);
    const resolutions: string[] = [];
    registry.use({
      name: 'asker',
      beforeToolCall: () => ({
        requireApproval: {
          title: 'Write',
          description: 'ok?',
          onResolution: (decision) => void resolutions.push(decision),
        },
      }),
    });
    const result = await registry.get('write_file')!.execute('c5', { path: 'x' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Approval unavailable');
    expect(resolutions).toEqual(['cancelled']);
    expect(tool.calls).toEqual([]);
  });

  it('freezes the params at the first approval; later rewrites are ignored, a later block still blocks', async () => {
    const requests: ApprovalRequest[] = [];
    const registry = new ToolRegistry({
      onApproval: (request) => {
        requests.push(request);
        return 'allow-once';
      },
    });
    const tool = recordingTool();
    registry.register(tool);
    registry.use({
      name: 'first',
      priority: 3,
      beforeToolCall: () => ({
        params: { mode: 'safe' },
        requireApproval: { title: 'A', description: 'first' },
      }),
    });
    registry.use({
      name: 'second',
      priority: 2,
      beforeToolCall: () => ({
        params: { mode: 'fast' },
        requireApproval: { title: 'B', description: 'second' },
      }),
    });
    const result = await registry.get('write_file')!.execute('c6', { path: 'x' });
    expect(result.isError).toBeUndefined();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      pluginId: 'first',
      title: 'A',
      toolName: 'write_file',
      toolCallId: 'c6',
      timeoutMs: 120_000,
      severity: 'warning',
    });
    expect(tool.calls).toEqual([{ path: 'x', mode: 'safe' }]);

    const blocking = new ToolRegistry({ onApproval: () => 'allow-once' });
    const other = recordingTool();
    blocking.register(other);
    blocking.use({
      name: 'first',
      priority: 3,
      beforeToolCall: () => ({ requireApproval: { title: 'A', description: 'a' } }),
    });
    blocking.use({
      name: 'veto',
      priority: 1,
      beforeToolCall: () => ({ block: true, blockReason: 'vetoed' }),
    });
    expect(textOf(await blocking.get('write_file')!.execute('c7', { path: 'x' }))).toBe('vetoed');
    expect(other.calls).toEqual([]);
  });

  it('denies on deny, on an answer not offered and on timeout; remembers allow-always per principal', async () => {
    let answer: string | undefined = 'deny';
    let asked = 0;
    const registry = new ToolRegistry({
      onApproval: async () => {
        asked++;
        if (answer === 'never') return new Promise(() => undefined);
        return answer as never;
      },
    });
    const tool = recordingTool();
    registry.register(tool);
    registry.use({
      name: 'asker',
      beforeToolCall: () => ({
        requireApproval: {
          title: 'Write',
          description: 'ok?',
          timeoutMs: 30,
          allowedDecisions: ['allow-once', 'allow-always', 'deny'],
        },
      }),
    });
    const call = (principal?: string) =>
      registry
        .get('write_file')!
        .execute(
          'c8',
          { path: 'x' },
          undefined,
          undefined,
          principal === undefined ? undefined : { toolCallId: 'c8', caller: { principal, owner: false } },
        );
    expect(textOf(await call())).toContain('Denied: Write');
    answer = 'maybe';
    expect(textOf(await call())).toContain('Approval timed out');
    answer = 'never';
    expect(textOf(await call())).toContain('Approval timed out');
    answer = 'allow-always';
    expect((await call()).isError).toBeUndefined();
    answer = 'deny';
    asked = 0;
    expect((await call()).isError).toBeUndefined();
    expect(asked).toBe(0);
    // Another principal is asked again.
    const other = await call('bob');
    expect(other.isError).toBe(true);
    expect(asked).toBe(1);
  });

  it('routes an approval to the call context and passes principal and context to hooks', async () => {
    const registry = new ToolRegistry({ onApproval: () => 'deny' });
    const tool = recordingTool();
    registry.register(tool);
    const contexts: unknown[] = [];
    registry.use({
      name: 'asker',
      beforeToolCall: (_event, context) => {
        contexts.push({ ...context, abortSignal: undefined });
        return { requireApproval: { title: 'Write', description: 'ok?' } };
      },
    });
    const [resolved] = await registry.resolveAll({ agentId: 'main', sessionKey: 's1' });
    const result = await resolved!.execute('c9', { path: 'x' }, undefined, undefined, {
      toolCallId: 'c9',
      caller: { principal: 'alice', owner: false },
      onApproval: (request) => (request.principal === 'alice' ? 'allow-once' : 'deny'),
    });
    expect(result.isError).toBeUndefined();
    expect(contexts[0]).toMatchObject({
      toolName: 'write_file',
      toolCallId: 'c9',
      agentId: 'main',
      sessionKey: 's1',
      principal: 'alice',
      source: 'native',
    });
  });

  it('runs tool_result_persist handlers in order, each on the previous message; promises are ignored', () => {
    const registry = new ToolRegistry();
    const errors: string[] = [];
    registry.use({
      name: 'redact',
      priority: 2,
      toolResultPersist: (event) => ({ message: { ...event.message, secret: '[redacted]' } }),
    });
    registry.use({
      name: 'async',
      priority: 1,
      toolResultPersist: (async () => ({ message: {} })) as never,
      onError: (message) => errors.push(message),
    });
    registry.use({
      name: 'tag',
      toolResultPersist: (event) => ({ message: { ...event.message, tagged: event.message.secret } }),
    });
    const message = registry.persistToolResult({
      toolName: 'x',
      message: { role: 'toolResult', secret: 'hunter2' },
    });
    expect(message).toEqual({ role: 'toolResult', secret: '[redacted]', tagged: '[redacted]' });
    expect(errors[0]).toContain('async');
  });

  it('rejects a middleware without a name or with a wildcard matcher', () => {
    const registry = new ToolRegistry();
    expect(() => registry.use({ name: '' })).toThrow(/name/);
    expect(() => registry.use({ name: 'x', matcher: ['*'] })).toThrow(/matcher/);
    expect(() => registry.use({ name: 'x', matcher: [] })).toThrow(/matcher/);
  });
});
