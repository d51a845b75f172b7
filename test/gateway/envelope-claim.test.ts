import { isLegacyRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { carriesEnvelopeClaim } from '../../src/gateway/http/envelope-claim.js';

const claim = (version: unknown, extra: Record<string, unknown> = {}) => ({
  _meta: { [PROTOCOL_VERSION_META_KEY]: version, ...extra },
});

const bodies: { label: string; body: unknown; header?: string; claims: boolean }[] = [
  {
    label: 'a 2026-07-28 tools/call',
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', ...claim('2026-07-28') } },
    claims: true,
  },
  {
    label: 'a claim naming an unknown revision',
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: claim('2099-01-01') },
    claims: true,
  },
  {
    label: 'a claim that is not a string',
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: claim(7) },
    claims: true,
  },
  {
    label: 'a claim whose header names another revision',
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: claim('2026-07-28') },
    header: '2025-11-25',
    claims: true,
  },
  {
    label: 'a notification with a claim',
    body: {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, ...claim('2026-07-28') },
    },
    claims: true,
  },
  {
    label: 'an initialize with a claim (a 2025-era handshake when the claim is invalid)',
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', ...claim(7) },
    },
    claims: false,
  },
  {
    label: 'a 2025-era request',
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    claims: false,
  },
  {
    label: 'a batch whose element has a claim',
    body: [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: claim('2026-07-28') }],
    claims: false,
  },
  { label: 'a posted response', body: { jsonrpc: '2.0', id: 1, result: {} }, claims: false },
  { label: 'a string', body: 'tools/list', claims: false },
];

describe('carriesEnvelopeClaim', () => {
  it.each(bodies)(
    'says $claims for $label, and never claims a request the SDK routes to the 2025 era',
    async ({ body, header, claims }) => {
      expect(carriesEnvelopeClaim(body)).toBe(claims);
      const request = new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(header ? { 'mcp-protocol-version': header } : {}),
        },
      });
      if (claims) expect(await isLegacyRequest(request, body)).toBe(false);
    },
  );
});
