import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpToolsConfig } from '../../src/config/config-types.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import type { ApprovalRequest } from '../../src/pipeline/tool-call-hooks.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { policyWarnings } from '../../src/policies/policy-warnings.js';
import { createRouterTools } from '../../src/router/create-router-tools.js';
import type { CallContext } from '../../src/tool/call-context.js';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';

const CANARY = 'canary-secret-7f3a9c';

/** The context of call `id` made by `principal` (as the gateway passes it). */
const asCaller = (id: string, principal: string): CallContext => ({
  toolCallId: id,
  caller: { principal, owner: false },
});

describe('policies from the configuration', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'mcptools-policies-'));
  const auditFile = join(scratch, 'audit', 'calls.jsonl');
  const requests: ApprovalRequest[] = [];
  const registry = new ToolRegistry({
    onApproval: (request) => {
      requests.push(request);
      return request.principal === 'mallory' ? 'deny' : 'allow-once';
    },
  });
  const deleted: string[] = [];
  registry.register({
    name: 'drop_table',
    description: 'Drops a table',
    parameters: { type: 'object', properties: { table: { type: 'string' } } },
    annotations: { destructiveHint: true },
    execute: async (_id, params) => {
      deleted.push(String(params.table));
      return { content: [{ type: 'text', text: 'dropped' }] };
    },
  });
  const config: McpToolsConfig = {
    servers: { echo: stdioFixture('echo') },
    policies: {
      deny: [{ match: { tools: ['echo__boom'] }, reason: 'boom is off limits' }],
      requireApproval: [
        { match: { annotations: ['destructiveHint'] }, reason: 'This deletes data' },
        { match: { tools: ['nothing_is_called_this_*'] } },
      ],
      overrides: {
        echo: {
          echo: { name: 'say', title: 'Say', description: 'Say the text back' },
          add: { arguments: { b: 40 } },
          fail: { name: 'say' },
          slow: { arguments: { nope: 1 } },
          ghost: { description: 'not a tool of echo' },
        },
        nowhere: { x: { name: 'y' } },
      },
      rateLimits: [{ match: { tools: ['echo__mixed'] }, per: 'tool', limit: 1, windowMs: 400 }],
      audit: { file: auditFile },
    },
  };
  let provider: McpToolHub;

  beforeAll(async () => {
    provider = await loadMcpServers(config, registry);
  });

  afterAll(async () => {
    await provider?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('renames, re-titles and re-describes an overridden tool in the tool list and tool_index', async () => {
    const tools = await registry.resolveAll();
    const say = tools.find((tool) => tool.name === 'say');
    expect(say).toMatchObject({ description: 'Say the text back', originalName: 'echo', server: 'echo' });
    expect(say?.annotations?.title).toBe('Say');
    expect(tools.some((tool) => tool.name === 'echo__echo')).toBe(false);
    expect(textOf(await say!.execute('s1', { text: 'hi' }))).toBe('hi');
    const toolIndex = createRouterTools(provider, registry).find((tool) => tool.name === 'tool_index')!;
    const listed = textOf(await toolIndex.execute('i1', { search: 'say the text back' }));
    expect(listed).toContain('say');
    expect(listed).toContain('Say the text back');
  });

  it('hides a fixed argument from the schema and fills it in on every call', async () => {
    const add = registry.get('echo__add')!;
    expect(Object.keys(add.parameters.properties ?? {})).toEqual(['a']);
    expect(add.parameters.required).toEqual(['a']);
    expect(textOf(await add.execute('a1', { a: 2 }))).toBe('42');
    // A value sent for the fixed argument anyway is replaced.
    expect(textOf(await add.execute('a2', { a: 2, b: 1000 }))).toBe('42');
  });

  it('does not serve a tool whose override cannot be applied, and says why naming the field', () => {
    expect(registry.has('echo__fail')).toBe(false);
    expect(registry.has('echo__slow')).toBe(false);
    const warnings = policyWarnings(config, registry, provider);
    expect(warnings).toEqual(
      expect.arrayContaining([
        'policies.overrides.echo.fail.name: "say" is already the name of another tool; echo/fail is not served',
        'policies.overrides.echo.slow.arguments.nope: the tool slow has no argument "nope"; echo/slow is not served',
        'policies.overrides.echo.ghost: server "echo" has no tool "ghost"',
        'policies.overrides.nowhere: no server "nowhere" is configured',
        'policies.requireApproval[1].match.tools: "nothing_is_called_this_*" matches no tool',
      ]),
    );
    expect(warnings).toHaveLength(5);
  });

  it('denies by glob with the configured reason', async () => {
    const result = await registry.get('echo__boom')!.execute('d1', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('boom is off limits');
  });

  it('asks before a destructive tool, native ones included, through the caller', async () => {
    const drop = registry.get('drop_table')!;
    const allowed = await drop.execute('x1', { table: 't1' }, undefined, undefined, asCaller('x1', 'alice'));
    expect(textOf(allowed)).toBe('dropped');
    expect(requests.at(-1)).toMatchObject({
      pluginId: 'policies',
      title: 'Call drop_table',
      description: 'This deletes data',
      severity: 'critical',
      principal: 'alice',
    });
    const denied = await drop.execute('x2', { table: 't2' }, undefined, undefined, asCaller('x2', 'mallory'));
    expect(denied.isError).toBe(true);
    expect(deleted).toEqual(['t1']);
  });

  it('rate-limits with a token bucket, says when to retry, and recovers', async () => {
    const mixed = registry.get('echo__mixed')!;
    expect((await mixed.execute('r1', {})).isError).toBeUndefined();
    const limited = await mixed.execute('r2', {});
    expect(limited.isError).toBe(true);
    expect(textOf(limited)).toMatch(/Rate limit reached for tool "echo__mixed".*Retry after 1 s$/);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await mixed.execute('r3', {})).isError).toBeUndefined();
  });

  it('writes one audit line per call, with decisions and an argument hash, never the values', async () => {
    await registry
      .get('say')!
      .execute('canary', { text: CANARY }, undefined, undefined, asCaller('canary', 'alice'));
    await registry.get('say')!.execute('canary-2', { text: CANARY });
    await new Promise((resolve) => setImmediate(resolve));
    await provider.close();
    const text = readFileSync(auditFile, 'utf8');
    expect(text).not.toContain(CANARY);
    const records = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const canary = records.find((record) => record.toolCallId === 'canary');
    expect(canary).toMatchObject({
      principal: 'alice',
      tool: 'say',
      originalName: 'echo',
      server: 'echo',
      outcome: 'ok',
      decisions: [],
    });
    expect(canary.argumentsHash).toMatch(/^[0-9a-f]{64}$/);
    expect(records.find((record) => record.toolCallId === 'canary-2').argumentsHash).toBe(
      canary.argumentsHash,
    );
    expect(Number.isNaN(Date.parse(canary.time))).toBe(false);
    expect(records.find((record) => record.toolCallId === 'd1')).toMatchObject({
      outcome: 'blocked',
      decisions: [{ by: 'policies', decision: 'block', reason: 'boom is off limits' }],
    });
    expect(records.find((record) => record.toolCallId === 'x2')).toMatchObject({
      principal: 'mallory',
      outcome: 'denied',
      decisions: [
        { by: 'policies', decision: 'requireApproval' },
        { by: 'policies', decision: 'deny' },
      ],
    });
  });
});

describe('the policies section of mcptools.json', () => {
  it('refuses a rule without a match and a bad override name, naming the field', () => {
    const read = (policies: unknown) => () =>
      parseConfig({ servers: {}, policies }, { file: '/tmp/mcptools.json' });
    expect(read({ deny: [{ match: {} }] })).toThrow(
      'field "policies.deny[0].match": a rule must give "tools", "servers" or "annotations"',
    );
    expect(read({ overrides: { echo: { echo: { name: 'bad name!' } } } })).toThrow(
      /policies\.overrides\.echo\.echo\.name/,
    );
    expect(read({ rateLimits: [{ per: 'planet', limit: 1, windowMs: 1 }] })).toThrow(
      /field "policies\.rateLimits\[0\]\.per"/,
    );
  });
});
