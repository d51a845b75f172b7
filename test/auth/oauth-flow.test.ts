import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/auth/file-token-store.js';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import type { McpToolsConfig } from '../../src/config/config-types.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import {
  followAuthorizationUrl,
  type OAuthFixture,
  startOAuthFixture,
} from '../fixtures/oauth/oauth-fixture.js';

const canary = 'CANARYq7x';
let fixture: OAuthFixture;
let dir: string;
const open: McpToolHub[] = [];

beforeAll(async () => {
  fixture = await startOAuthFixture({ canary, clients: { machine: 'machine-secret' } });
  dir = await mkdtemp(join(tmpdir(), 'mcptools-oauth-'));
});
afterAll(async () => {
  await fixture.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((provider) => provider.close()));
});

const config = (auth?: Record<string, unknown>, headers?: Record<string, string>): McpToolsConfig => ({
  servers: {
    remote: {
      type: 'streamable-http',
      url: fixture.mcpUrl,
      ...(auth ? { auth: auth as never } : {}),
      ...(headers ? { headers } : {}),
    },
  },
});

async function load(
  configuration: McpToolsConfig,
  options: Parameters<typeof loadMcpServers>[2] = {},
): Promise<{ provider: McpToolHub; registry: ToolRegistry; output: string[] }> {
  const registry = new ToolRegistry();
  const output: string[] = [];
  const provider = await loadMcpServers(configuration, registry, {
    connectTimeoutMs: 10_000,
    reconnect: { enabled: false },
    ...options,
  });
  provider.on('warning', (message) => output.push(message));
  provider.on('status', (status) => output.push(JSON.stringify(status)));
  open.push(provider);
  return { provider, registry, output };
}

async function callTool(registry: ToolRegistry, name: string, args: Record<string, unknown> = {}) {
  const tool = (await registry.resolveAll()).find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.execute('call', args);
}

describe('OAuth authorization code flow', () => {
  it('discovers, registers, follows the browser step and connects; the vault is 0600 and no token leaks', async () => {
    const store = new FileTokenStore(join(dir, 'flow', 'oauth-vault.json'));
    const urls: string[] = [];
    const { provider, registry, output } = await load(config(), {
      tokenStore: store,
      onAuthorizationUrl: async (url, { server }) => {
        urls.push(`${server} ${url.origin}${url.pathname}`);
        await followAuthorizationUrl(url);
      },
    });
    expect(provider.status('remote')?.state).toBe('connected');
    expect(urls).toEqual([`remote ${fixture.issuer}/authorize`]);
    expect(fixture.state.counts.register).toBeGreaterThanOrEqual(1);
    const result = await callTool(registry, 'remote__whoami');
    expect(result.isError).toBeFalsy();
    const mode = (await stat(store.path)).mode & 0o777;
    expect(mode).toBe(0o600);
    const entry = await store.get(fixture.mcpUrl);
    expect(entry?.tokens?.access_token).toContain(canary);
    const everything = [JSON.stringify(provider.status()), JSON.stringify(result), ...output].join('\n');
    expect(everything).not.toContain(canary);
  });

  it('without a URL handler the server waits in auth_required with the command, and does not retry', async () => {
    const before = fixture.state.counts.authorize;
    const { provider } = await load(config(), {
      tokenStore: new MemoryTokenStore(),
      reconnect: { initialDelayMs: 10 },
    });
    const status = provider.status('remote');
    expect(status?.state).toBe('auth_required');
    expect(status?.lastError?.message).toContain('mcptools auth remote');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(provider.status('remote')?.reconnectAttempts).toBe(0);
    expect(provider.status('remote')?.nextRetryAt).toBeUndefined();
    expect(fixture.state.counts.authorize).toBe(before);
  });

  it('provider.authorize returns the URL; completing it connects the server', async () => {
    const { provider } = await load(config(), { tokenStore: new MemoryTokenStore() });
    expect(provider.status('remote')?.state).toBe('auth_required');
    const start = await provider.authorize?.('remote');
    expect(start?.status).toBe('pending');
    expect(provider.pendingAuthorization?.('remote')).toBe(start?.url);
    await followAuthorizationUrl(new URL(start?.url ?? ''));
    await start?.completion;
    await expect.poll(() => provider.status('remote')?.state).toBe('connected');
  });
});

describe('refresh', () => {
  it('refreshes before expiry, and on a 401, without a person', async () => {
    const store = new MemoryTokenStore();
    fixture.setAccessTokenTtl(30); // inside the 60 s margin: every request refreshes first
    const { provider, registry } = await load(config(), {
      tokenStore: store,
      onAuthorizationUrl: followAuthorizationUrl,
    });
    fixture.setAccessTokenTtl(3600);
    expect(provider.status('remote')?.state).toBe('connected');
    const refreshes = fixture.state.counts.refresh;
    expect((await callTool(registry, 'remote__whoami')).isError).toBeFalsy();
    expect(fixture.state.counts.refresh).toBe(refreshes + 1);

    const authorizations = fixture.state.counts.authorize;
    fixture.invalidateAccessTokens();
    expect((await callTool(registry, 'remote__whoami')).isError).toBeFalsy();
    expect(fixture.state.counts.refresh).toBe(refreshes + 2);
    expect(fixture.state.counts.authorize).toBe(authorizations);
  });

  it('a revoked refresh token moves the server to auth_required with the command, once', async () => {
    const store = new MemoryTokenStore();
    const { provider, registry, output } = await load(config(), {
      tokenStore: store,
      onAuthorizationUrl: followAuthorizationUrl,
    });
    expect(provider.status('remote')?.state).toBe('connected');
    await provider.close();
    // A later run without anyone at the browser: the refresh token has been revoked meanwhile.
    fixture.revokeRefreshTokens();
    fixture.invalidateAccessTokens();
    const refused = fixture.state.counts.refused;
    const again = await load(config(), { tokenStore: store });
    const status = again.provider.status('remote');
    expect(status?.state).toBe('auth_required');
    expect(status?.lastError?.message).toMatch(/mcptools auth remote.*refused the refresh token/);
    expect(fixture.state.counts.refused).toBe(refused + 1);
    expect((await store.get(fixture.mcpUrl))?.tokens).toBeUndefined();
    const call = await callTool(registry, 'remote__whoami').catch((error: unknown) => error);
    expect(JSON.stringify([status, output, String(call)])).not.toContain(canary);
  });
});

describe('other grants and precedence', () => {
  it('client credentials: a machine client gets a token without a person', async () => {
    const { provider, registry } = await load(
      config({
        type: 'oauth',
        grant: 'client_credentials',
        clientId: 'machine',
        clientSecret: 'machine-secret',
      }),
      { tokenStore: new MemoryTokenStore() },
    );
    expect(provider.status('remote')?.state).toBe('connected');
    const result = await callTool(registry, 'remote__whoami');
    expect(JSON.stringify(result.content)).toContain('client machine');
    expect(fixture.state.counts.clientCredentials).toBeGreaterThanOrEqual(1);
  });

  it('a static Authorization header wins over OAuth and is never replaced', async () => {
    const store = new MemoryTokenStore();
    const seen = fixture.state.seenAuthorization.length;
    const authorizations = fixture.state.counts.authorize;
    const { provider } = await load(config({ type: 'oauth' }, { Authorization: 'Bearer static-token' }), {
      tokenStore: store,
      onAuthorizationUrl: followAuthorizationUrl,
    });
    expect(provider.status('remote')?.state).toBe('error');
    expect(
      fixture.state.seenAuthorization.slice(seen).every((value) => value === 'Bearer static-token'),
    ).toBe(true);
    expect(fixture.state.counts.authorize).toBe(authorizations);
    expect(await store.list()).toEqual([]);
  });

  it('step-up: a tool that needs a wider scope re-authorizes and the call succeeds', async () => {
    const { registry } = await load(config(), {
      tokenStore: new MemoryTokenStore(),
      onAuthorizationUrl: followAuthorizationUrl,
    });
    const authorizations = fixture.state.counts.authorize;
    const result = await callTool(registry, 'remote__write_note', { text: 'hello' });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('noted 5 characters');
    expect(fixture.state.counts.authorize).toBe(authorizations + 1);
  });
});

describe('the mcp_auth router tool', () => {
  it('starts authorization, returns the URL, reports completion later; other tools work meanwhile; plan mode hides it', async () => {
    const { createRouterTools } = await import('../../src/router/create-router-tools.js');
    const { planModeFilter } = await import('../../src/router/tool-policy-filters.js');
    const { provider, registry } = await load(
      {
        servers: {
          remote: { type: 'streamable-http', url: fixture.mcpUrl },
          other: { type: 'streamable-http', url: fixture.mcpUrl, auth: { type: 'bearer', token: 'x' } },
        },
      },
      { tokenStore: new MemoryTokenStore() },
    );
    const tools = createRouterTools(provider, registry);
    const mcpAuth = tools.find((tool) => tool.name === 'mcp_auth');
    expect(mcpAuth?.readOnly).toBe(false);
    expect(planModeFilter(tools).some((tool) => tool.name === 'mcp_auth')).toBe(false);
    const parse = (result: { content: { type: string; text?: string }[] }) =>
      JSON.parse(result.content[0]?.text ?? '{}') as Record<string, unknown>;

    const listing = parse(await mcpAuth!.execute('1', {}));
    expect(listing.servers).toEqual([
      { server: 'remote', state: 'auth_required', status: 'needs_authorization' },
    ]);
    const started = parse(await mcpAuth!.execute('2', { server: 'remote' }));
    expect(started.status).toBe('pending');
    expect(String(started.url)).toContain(`${fixture.issuer}/authorize`);
    // Meanwhile the other tools answer.
    const index = tools.find((tool) => tool.name === 'tool_index');
    expect((await index!.execute('3', {})).isError).toBeFalsy();
    expect(parse(await mcpAuth!.execute('4', { server: 'remote' })).url).toBe(started.url);
    await followAuthorizationUrl(new URL(String(started.url)));
    await expect.poll(() => provider.status('remote')?.state).toBe('connected');
    const done = parse(await mcpAuth!.execute('5', { server: 'remote' }));
    expect(done).toMatchObject({ server: 'remote', status: 'authorized', state: 'connected' });
    const refused = await mcpAuth!.execute('6', { server: 'other' });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify([listing, started, done])).not.toContain(canary);
  });
});
