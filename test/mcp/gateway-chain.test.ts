import { afterEach, describe, expect, it } from 'vitest';
import {
  activateGatewayChain,
  CHAIN_ENV,
  chainCapabilities,
  chainEnvironment,
  chainHeaders,
  configKeyOf,
  gatewayLoopReason,
  incomingLoop,
  learnReach,
  MAX_CHAIN_HOPS,
  parseChain,
  reachHeaderValue,
  requestLoop,
  resetGatewayChain,
} from '../../src/chain/gateway-chain.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { ServerStatus } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { stdioFixture } from './hub-test-helpers.js';

const saved = process.env[CHAIN_ENV];

afterEach(() => {
  if (saved === undefined) delete process.env[CHAIN_ENV];
  else process.env[CHAIN_ENV] = saved;
  resetGatewayChain();
});

/** A fresh chain state as a process started with `chain` in its environment would have. */
function startedWith(chain: string | undefined): void {
  if (chain === undefined) delete process.env[CHAIN_ENV];
  else process.env[CHAIN_ENV] = chain;
  resetGatewayChain();
}

describe('the gateway chain', () => {
  it('keeps only well-formed hop tokens', () => {
    expect(parseChain('0123abcd-0123456789ab, junk,,ABCDEF12-000000000000,deadbeef-00112233aabb')).toEqual([
      '0123abcd-0123456789ab',
      'deadbeef-00112233aabb',
    ]);
    expect(parseChain(undefined)).toEqual([]);
  });

  it('a process that is no gateway passes on what it inherited, and refuses nothing', () => {
    startedWith('0123abcd-0123456789ab');
    expect(chainEnvironment()).toEqual({ [CHAIN_ENV]: '0123abcd-0123456789ab' });
    expect(chainHeaders()).toEqual({ 'mcptools-gateway-chain': '0123abcd-0123456789ab' });
    expect(incomingLoop('0123abcd-0123456789ab')).toBeUndefined();
    expect(reachHeaderValue()).toBeUndefined();
    startedWith(undefined);
    expect(chainEnvironment()).toEqual({});
  });

  it('a gateway appends its hop, refuses requests that carry it, and those from gateways behind it', () => {
    startedWith('0123abcd-0123456789ab');
    const { token, loop } = activateGatewayChain(configKeyOf('/srv/a.json'));
    expect(loop).toBeUndefined();
    expect(token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{12}$/);
    expect(chainEnvironment()[CHAIN_ENV]).toBe(`0123abcd-0123456789ab,${token}`);
    expect(incomingLoop(null)).toBeUndefined();
    expect(incomingLoop('99999999-aaaaaaaaaaaa')).toBeUndefined();
    expect(incomingLoop(`99999999-aaaaaaaaaaaa,${token}`)).toMatch(
      /^mcptools gateway loop: this request already passed/,
    );
    // An upstream answered: B (and C behind it) are reachable through this gateway.
    learnReach('bbbbbbbb-bbbbbbbbbbbb,cccccccc-cccccccccccc');
    expect(reachHeaderValue()).toBe(`${token},bbbbbbbb-bbbbbbbbbbbb,cccccccc-cccccccccccc`);
    expect(incomingLoop('cccccccc-cccccccccccc')).toMatch(/reachable upstream of this one/);
    const long = Array.from(
      { length: MAX_CHAIN_HOPS },
      (_, index) => `${'1'.repeat(8)}-${String(index).padStart(12, '0')}`,
    );
    expect(incomingLoop(long.join(','))).toMatch(/hops long/);
  });

  it('a serve whose inherited chain already serves its configuration refuses to start', () => {
    const key = configKeyOf('/srv/a.json');
    startedWith(`${key}-0123456789ab,${configKeyOf('/srv/b.json')}-0123456789ab`);
    expect(activateGatewayChain(key).loop).toMatch(
      /^mcptools gateway loop: this configuration is already served/,
    );
    startedWith(`${configKeyOf('/srv/b.json')}-0123456789ab`);
    expect(activateGatewayChain(key).loop).toBeUndefined();
    // The profile is part of the configuration's identity.
    expect(configKeyOf('/srv/a.json', 'small')).not.toBe(key);
  });

  it('recognises a refusal inside an upstream error, by its sentence or by HTTP 508', () => {
    const wrapped = new McpToolsError(
      'CONNECTION_FAILED',
      'connect failed: Error POSTing to endpoint (HTTP 508): {"jsonrpc":"2.0","error":{"code":-32000,"message":"mcptools gateway loop: the calling gateway x is also reachable"},"id":null}',
    );
    expect(gatewayLoopReason(wrapped)).toBe('mcptools gateway loop: the calling gateway x is also reachable');
    expect(gatewayLoopReason(new Error('outer', { cause: new Error('probe answered HTTP 508') }))).toMatch(
      /508 Loop Detected/,
    );
    expect(gatewayLoopReason(new Error('connect ECONNREFUSED'))).toBeUndefined();
  });
});

describe('loadMcpServers({ skip })', () => {
  it('marks a skipped server once, never starts it, and fails calls to it without retrying', async () => {
    const registry = new ToolRegistry();
    const events: ServerStatus[] = [];
    const provider = await loadMcpServers(
      {
        servers: {
          echo: stdioFixture('echo'),
          // Would fail to spawn if anything started it.
          self: { type: 'stdio', command: '/nonexistent/mcptools', args: ['serve', '--stdio'] },
        },
      },
      registry,
      {
        eraCache: false,
        skip: (name) => (name === 'self' ? 'skipped: this is mcptools itself (test)' : undefined),
        onStatus: (status) => {
          if (status.name === 'self') events.push(status);
        },
      },
    );
    try {
      const status = provider.status('self')!;
      expect(status.state).toBe('skipped');
      expect(status.lastError).toEqual({
        code: 'CONNECTION_FAILED',
        message: 'skipped: this is mcptools itself (test)',
        recoverable: false,
      });
      expect(status.nextRetryAt).toBeUndefined();
      expect(events.map((event) => event.state)).toEqual(['skipped']);
      await provider.refresh('self');
      expect(provider.status('self')?.state).toBe('skipped');
      expect(events).toHaveLength(1);
      await expect(provider.resources.read('self', 'file:///x')).rejects.toMatchObject({
        code: 'CONNECTION_FAILED',
        recoverable: false,
        message: 'server "self" was skipped: this is mcptools itself (test)',
      });
      // Lists over every server leave it out instead of reporting an error for it.
      expect((await provider.resources.listAll()).errors).toEqual([]);
      expect(provider.status('echo')?.state).toBe('connected');
    } finally {
      await provider.close();
    }
    expect(provider.status('self')?.state).toBe('skipped');
  });
});

describe('the chain inside client capabilities (what a bridge forwards)', () => {
  it('is declared only when there is a chain, and refused from either era’s place', () => {
    startedWith(undefined);
    expect(chainCapabilities()).toBeUndefined();
    const { token } = activateGatewayChain(configKeyOf('/srv/a.json'));
    expect(chainCapabilities()).toEqual({ 'mcptools/gatewayChain': { hops: token } });
    const initialize = {
      method: 'initialize',
      params: { capabilities: { experimental: chainCapabilities() } },
    };
    expect(requestLoop(initialize)).toMatch(/already passed through this gateway/);
    const modern = {
      method: 'tools/list',
      params: {
        _meta: { 'io.modelcontextprotocol/clientCapabilities': { experimental: chainCapabilities() } },
      },
    };
    expect(requestLoop([{ method: 'ping' }, modern])).toMatch(/already passed through this gateway/);
    expect(requestLoop({ method: 'initialize', params: { capabilities: {} } })).toBeUndefined();
    expect(requestLoop(undefined)).toBeUndefined();
  });
});
