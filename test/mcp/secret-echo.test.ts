// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} placeholders under test, not templates.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { fixtureCommand, type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { textOf } from './hub-test-helpers.js';

// A canary secret placed in a server's env, headers, URL (userinfo, query value, bare query key)
// and `${VAR}` values, given to fixtures that echo it back in every failure they can produce.
const canary = 'canary-7f3a9c2e-d41d8cd9';
const shortCanary = 'cnry-4e1f';

/** Everything an error could leak through: message, stack, JSON view and the cause chain. */
function everything(error: unknown): string {
  const seen: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 10; depth++) {
    seen.push(current.message, current.stack ?? '', JSON.stringify(current));
    if (McpToolsError.isInstance(current)) seen.push(JSON.stringify(current.toJSON()));
    current = current.cause;
  }
  return seen.join('\n');
}

describe('a canary secret echoed back by upstreams never leaves mcptools', () => {
  let http: HttpFixture;
  let provider: McpToolHub;
  const registry = new ToolRegistry();
  const warnings: string[] = [];
  const events: unknown[] = [];

  beforeAll(async () => {
    http = await startHttpFixture('leaky', [], { env: { LEAKY_SECRET: canary } });
    const leaky = fixtureCommand('leaky');
    const exiting = fixtureCommand('leaky', ['--exit-at-start']);
    const withUser = http.url.replace('http://', `http://bob:${shortCanary}@`);
    const config = parseConfig(
      {
        servers: {
          stdio: { command: leaky.command, args: leaky.args, env: { LEAKY_SECRET: '${CANARY}' } },
          http: {
            type: 'streamable-http',
            url: `${http.url}?token=\${CANARY}&\${CANARY}`,
            headers: { 'X-Api-Key': '${CANARY}' },
          },
          basic: { type: 'streamable-http', url: withUser },
          exits: { command: exiting.command, args: exiting.args, env: { LEAKY_SECRET: '${CANARY}' } },
          refused: { url: 'http://127.0.0.1:1/mcp?${CANARY}', connectTimeoutMs: 5000 },
          notFound: { url: `${http.url.replace('/mcp', '/nope')}?\${CANARY}`, connectTimeoutMs: 5000 },
        },
      },
      { env: { CANARY: canary } },
    );
    provider = await loadMcpServers(config, registry, {
      connectTimeoutMs: 30_000,
      reconnect: { initialDelayMs: 60_000 },
    });
    provider.on('warning', (message) => warnings.push(message));
    provider.on('status', (status) => events.push(status));
  });

  afterAll(async () => {
    await provider?.close();
    await http?.close();
  });

  it('connects the echoing servers (the test is about their answers)', () => {
    expect(provider.status('stdio')?.state).toBe('connected');
    expect(provider.status('http')?.state).toBe('connected');
    expect(provider.status('basic')?.state).toBe('connected');
  });

  it('redacts the key an upstream quotes in an isError result and a JSON-RPC error', async () => {
    for (const server of ['stdio', 'http']) {
      const rejected = await registry.get(`${server}__reject_key`)!.execute('1', {});
      expect(rejected.isError).toBe(true);
      expect(textOf(rejected)).toBe('upstream rejected key ***');
      const thrown = await registry.get(`${server}__throw_key`)!.execute('2', {});
      expect(thrown.isError).toBe(true);
      expect(textOf(thrown)).toContain('upstream rejected key ***');
      expect(JSON.stringify([rejected, thrown])).not.toContain(canary);
    }
  });

  it('sends URL user:password@ as an Authorization: Basic header, never echoed back', async () => {
    const header = `Basic ${Buffer.from(`bob:${shortCanary}`).toString('base64')}`;
    const digest = await registry.get('basic__authorization_sha256')!.execute('1', {});
    expect(textOf(digest)).toBe(createHash('sha256').update(header).digest('hex'));
    // A successful result that echoes the header is redacted like an error would be.
    const echoed = await registry.get('basic__authorization')!.execute('2', {});
    expect(textOf(echoed)).toBe('Basic ***');
    expect(provider.status('basic')?.lastError).toBeUndefined();
  });

  it('redacts thrown errors (message, cause, stack) of resource reads', async () => {
    const error = await provider.resources.read('stdio', 'leaky://key').then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(McpToolsError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('cannot read with key ***');
    expect(everything(error)).not.toContain(canary);
  });

  it('keeps the canary out of status, the stderr tail and events', async () => {
    const exits = provider.status('exits');
    expect(exits?.lastError?.message).toContain('fatal: key *** was refused');
    expect(provider.status('refused')?.state).toBe('error');
    expect(provider.status('notFound')?.state).toBe('error');
    await provider.refresh().catch(() => undefined);
    const all = JSON.stringify({ status: provider.status(), warnings, events });
    expect(all).not.toContain(canary);
    expect(all).not.toContain(shortCanary);
  });
});
