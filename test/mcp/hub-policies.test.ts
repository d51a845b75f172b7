import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { McpToolsConfig } from '../../src/config/config-types.js';
import type { PoliciesConfig } from '../../src/config/policies-schema.js';
import type { McpChangingHub } from '../../src/mcp/hub-types.js';
import { startMcpHub } from '../../src/mcp/start-mcp-hub.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { ConfiguredPolicies } from '../../src/policies/configured-policies.js';
import { createEchoServer } from '../fixtures/servers/echo-server.js';
import { textOf } from './hub-test-helpers.js';

// The hub applies the policies object it is given and builds none from its configuration:
// its middlewares in the pipeline, its overrides at registration, its guards on resource reads,
// and a reload through the hub replaces them. The echo fixture runs in this process: the
// subject is the hub, not a transport.

/** A GitHub token of the real format, made up for this run (never a real one). */
const CANARY = `ghp_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;

/** The configuration handed to every hub here: its own `policies` section must never apply. */
const CONFIG: McpToolsConfig = {
  servers: {},
  policies: { deny: [{ match: { tools: ['echo__add'] }, reason: 'the configuration says no' }] },
};

let hub: McpChangingHub | undefined;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-hub-policies-'));
});
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function open(policies: ConfiguredPolicies): Promise<{ hub: McpChangingHub; registry: ToolRegistry }> {
  const registry = new ToolRegistry();
  const started = await startMcpHub(CONFIG, registry, policies, {
    inProcessServers: { echo: { server: createEchoServer } },
    eraCache: false,
  });
  hub = started.hub;
  await started.connected;
  return { hub: started.hub, registry };
}

const call = (registry: ToolRegistry, name: string, args: Record<string, unknown>) =>
  registry.get(name)!.execute(`call-${randomBytes(4).toString('hex')}`, args);

describe('a hub given its policies', () => {
  it('blocks, renames and screens by the policies object, not by its configuration, and replaces them on reload', async () => {
    const section: PoliciesConfig = {
      deny: [{ match: { tools: ['echo__echo'] }, reason: 'the policies object says no' }],
      overrides: { echo: { boom: { name: 'explode' }, fail: { arguments: { nope: 1 } } } },
      guards: { results: { secrets: 'block' } },
    };
    const policies = new ConfiguredPolicies(section);
    const { hub, registry } = await open(policies);

    const denied = await call(registry, 'echo__echo', { text: 'hello' });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('the policies object says no');
    // The configuration's own section is not the hub's to build: add is served.
    expect((await call(registry, 'echo__add', { a: 2, b: 3 })).structuredContent).toEqual({ sum: 5 });
    // The overrides apply at registration; the one that cannot be applied is kept by the object.
    expect(registry.has('explode')).toBe(true);
    expect(registry.has('echo__boom')).toBe(false);
    expect(registry.has('echo__fail')).toBe(false);
    expect(hub.overrideProblem?.('echo', 'fail')).toContain('policies.overrides.echo.fail');
    expect(hub.overrideProblem?.('echo', 'fail')).toBe(policies.overrideProblem('echo', 'fail'));
    // The guards screen a resource read (which does not pass the pipeline); plain text passes.
    await expect(hub.resources.read('echo', `echo://items/${CANARY}`)).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    expect((await hub.resources.read('echo', 'echo://items/plain'))[0]?.text).toBe('item plain');

    await hub.replacePolicies({
      deny: [{ match: { tools: ['echo__add'] }, reason: 'reloaded: add is off' }],
    });
    expect(textOf(await call(registry, 'echo__echo', { text: 'hello' }))).toBe('hello');
    const reloaded = await call(registry, 'echo__add', { a: 2, b: 3 });
    expect(reloaded.isError).toBe(true);
    expect(textOf(reloaded)).toContain('reloaded: add is off');
    expect(policies.guards).toBeUndefined();
    expect((await hub.resources.read('echo', `echo://items/${CANARY}`))[0]?.text).toBe(`item ${CANARY}`);
  });

  it('blocks nothing when the policies object was built from no section (the control)', async () => {
    const { hub, registry } = await open(new ConfiguredPolicies(undefined));
    expect(textOf(await call(registry, 'echo__echo', { text: 'hello' }))).toBe('hello');
    expect((await call(registry, 'echo__add', { a: 2, b: 3 })).structuredContent).toEqual({ sum: 5 });
    expect(registry.has('echo__boom')).toBe(true);
    expect((await hub.resources.read('echo', `echo://items/${CANARY}`))[0]?.text).toBe(`item ${CANARY}`);
  });

  it("takes the rate limits' tokens from the store shared through the hub, and hears the policies' warnings", async () => {
    const policies = new ConfiguredPolicies({
      rateLimits: [{ match: { tools: ['echo__echo'] }, per: 'tool', limit: 1, windowMs: 60_000 }],
    });
    const { hub, registry } = await open(policies);
    const warnings: string[] = [];
    hub.on('warning', (message) => warnings.push(message));
    const taken: string[] = [];
    const stopSharing = hub.shareRateLimits!({
      take: async (key) => {
        taken.push(key);
        return 0;
      },
    });
    // The shared store has tokens: two calls pass a limit of one per minute.
    expect(textOf(await call(registry, 'echo__echo', { text: 'one' }))).toBe('one');
    expect(textOf(await call(registry, 'echo__echo', { text: 'two' }))).toBe('two');
    expect(taken).toHaveLength(2);
    stopSharing();
    hub.shareRateLimits!({
      take: async () => {
        throw new Error('the store is down');
      },
    });
    // A store that does not answer: the local bucket limits, and the hub says why.
    expect(textOf(await call(registry, 'echo__echo', { text: 'three' }))).toBe('three');
    const limited = await call(registry, 'echo__echo', { text: 'four' });
    expect(limited.isError).toBe(true);
    expect(textOf(limited)).toMatch(/retry after/i);
    expect(warnings.join('\n')).toContain('the shared store did not answer (the store is down)');
    expect(taken).toHaveLength(2);
  });

  it('leaves no policy in the registry when the hub is refused', async () => {
    const registry = new ToolRegistry();
    registry.register({
      name: 'ping',
      description: 'answers pong',
      parameters: { type: 'object', properties: {} },
      execute: async () => ({ content: [{ type: 'text', text: 'pong' }] }),
    });
    const policies = new ConfiguredPolicies({ deny: [{ match: { tools: ['ping'] } }] });
    await expect(startMcpHub(CONFIG, registry, policies, { callTimeoutMs: -1 })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });
    expect(textOf(await call(registry, 'ping', {}))).toBe('pong');
    // The control: a deny rule of the same shape, given to a hub that starts, blocks.
    const { registry: served } = await open(
      new ConfiguredPolicies({ deny: [{ match: { tools: ['echo__echo'] } }] }),
    );
    expect((await call(served, 'echo__echo', { text: 'hello' })).isError).toBe(true);
  });

  it('closes the policies it was given when it closes: the audit log is flushed', async () => {
    const file = join(dir, 'audit.jsonl');
    const { hub, registry } = await open(new ConfiguredPolicies({ audit: { file } }));
    expect(textOf(await call(registry, 'echo__echo', { text: 'audited' }))).toBe('audited');
    await hub.close();
    const records = readFileSync(file, 'utf8').trim().split('\n');
    expect(records.map((line) => (JSON.parse(line) as { tool: string }).tool)).toEqual(['echo__echo']);
  });
});
