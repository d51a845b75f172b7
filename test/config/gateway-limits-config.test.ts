import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { resolveGatewayLimits } from '../../src/gateway/gateway-limits.js';

/* `gateway.limits`: accepted, refused with the file and field named, defaulted by whether callers are told apart. */

describe('gateway.limits', () => {
  it('accepts every cap and quota', () => {
    const limits = {
      sessions: 200,
      sessionsPerPrincipal: 20,
      sessionIdleMs: 3_600_000,
      listenStreams: 100,
      listenStreamsPerPrincipal: 5,
      eventBytes: 64 * 1024 * 1024,
      eventBytesPerPrincipal: 8 * 1024 * 1024,
      eventTtlMs: 60_000,
      unlinkedParkMs: 10_000,
      parkedCalls: 500,
      parkedCallsPerPrincipal: 10,
    };
    const config = parseConfig({ servers: {}, gateway: { limits } }, { file: 'mcptools.json' });
    expect(config.gateway?.limits).toEqual(limits);
  });

  it('refuses a zero, a fraction, a negative duration and an unknown field, naming the file and the field', () => {
    const bad = (limits: Record<string, unknown>) => () =>
      parseConfig({ servers: {}, gateway: { limits } }, { file: 'mcptools.json' });
    expect(bad({ sessionsPerPrincipal: 0 })).toThrow(
      /mcptools\.json.*gateway\.limits\.sessionsPerPrincipal/s,
    );
    expect(bad({ listenStreams: 1.5 })).toThrow(/gateway\.limits\.listenStreams/);
    expect(bad({ sessionIdleMs: -1 })).toThrow(/gateway\.limits\.sessionIdleMs/);
    expect(bad({ sesions: 10 })).toThrow(/gateway\.limits.*sesions/s);
  });

  it('defaults per-principal quotas to the global caps when every caller is one principal, to a share otherwise', () => {
    expect(resolveGatewayLimits({}, false)).toMatchObject({
      sessions: 1000,
      sessionsPerPrincipal: 1000,
      listenStreamsPerPrincipal: 1000,
      eventBytesPerPrincipal: 256 * 1024 * 1024,
    });
    expect(resolveGatewayLimits({}, true)).toMatchObject({
      sessionsPerPrincipal: 100,
      listenStreamsPerPrincipal: 100,
      parkedCallsPerPrincipal: 100,
      eventBytesPerPrincipal: 64 * 1024 * 1024,
      sessionIdleMs: 6 * 60 * 60 * 1000,
      unlinkedParkMs: 30_000,
    });
    // A quota is never above its cap.
    expect(resolveGatewayLimits({ sessions: 10, sessionsPerPrincipal: 50 }, true).sessionsPerPrincipal).toBe(
      10,
    );
  });
});
