import { describe, expect, it } from 'vitest';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { fixtureEntry } from '../fixtures/spawn-http.js';
import { waitUntil } from '../helpers/wait-until.js';
import { childPidsMatching, eventually, stdioFixture, textOf } from './hub-test-helpers.js';

describe('loadMcpServers options', () => {
  it('times a call out with TIMEOUT, cancels it upstream, and keeps the server usable', async () => {
    const registry = new ToolRegistry();
    const provider = await loadMcpServers(
      { servers: { echo: stdioFixture('echo', [], { protocol: '2025' }) } },
      registry,
      {
        callTimeoutMs: 300,
      },
    );
    try {
      const result = await registry.get('echo__slow')!.execute('1', { ms: 3000, steps: 30 });
      expect(result.isError).toBe(true);
      expect(result.details).toMatchObject({ code: 'TIMEOUT', server: 'echo', tool: 'slow' });
      expect(textOf(result)).toBe('Tool echo/slow failed: request timed out after 300 ms');
      expect(provider.status('echo')?.state).toBe('connected');
      expect(textOf(await registry.get('echo__echo')!.execute('2', { text: 'ok' }))).toBe('ok');
      const cancelled = await eventually(async () => {
        const counts = await registry.get('echo__cancelled_count')!.execute('3', {});
        return (counts.structuredContent as { cancelled: number }).cancelled >= 1;
      }, 5000);
      expect(cancelled).toBe(true);
    } finally {
      await provider.close();
    }
  });

  it("applies each server's own callTimeoutMs to its tools only", async () => {
    const registry = new ToolRegistry();
    const provider = await loadMcpServers(
      {
        servers: {
          quick: stdioFixture('echo', [], { protocol: '2025', callTimeoutMs: 300 }),
          patient: stdioFixture('echo', [], { protocol: '2025' }),
          alsoQuick: stdioFixture('echo', [], { protocol: '2025', callTimeoutMs: 300 }),
        },
      },
      registry,
    );
    try {
      const [quick, patient, alsoQuick] = await Promise.all(
        ['quick', 'patient', 'alsoQuick'].map((server) =>
          registry.get(`${server}__slow`)!.execute(server, { ms: 1500 }),
        ),
      );
      expect(textOf(quick!)).toBe('Tool quick/slow failed: request timed out after 300 ms');
      expect(textOf(alsoQuick!)).toBe('Tool alsoQuick/slow failed: request timed out after 300 ms');
      expect(patient!.isError).toBeUndefined();
    } finally {
      await provider.close();
    }
  });

  it("names the caller's AbortSignal.timeout as the timeout that fired, not the call timeout", async () => {
    const registry = new ToolRegistry();
    const provider = await loadMcpServers(
      { servers: { echo: stdioFixture('echo', [], { protocol: '2025' }) } },
      registry,
    );
    try {
      const result = await registry.get('echo__slow')!.execute('1', { ms: 5000 }, AbortSignal.timeout(300));
      expect(result.details).toMatchObject({ code: 'TIMEOUT', timeout: 'signal' });
      expect(textOf(result)).toBe(
        "Tool echo/slow failed: timed out by the caller's signal (its own timeout)",
      );
    } finally {
      await provider.close();
    }
  });

  it('clamps a call timeout above 2^31-1 ms instead of failing every call at once', async () => {
    const registry = new ToolRegistry();
    const provider = await loadMcpServers(
      { servers: { echo: stdioFixture('echo', [], { protocol: '2025', callTimeoutMs: 3e9 }) } },
      registry,
    );
    try {
      const result = await registry.get('echo__slow')!.execute('1', { ms: 300, steps: 2 });
      expect(result.isError).toBeUndefined();
      expect(textOf(result)).toBe('slept 300ms in 2 steps');
      await expect(
        loadMcpServers({ servers: {} }, new ToolRegistry(), { callTimeoutMs: -1 }),
      ).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('callTimeoutMs') });
    } finally {
      await provider.close();
    }
  });

  it('returns ABORTED at once for a signal that is already aborted', async () => {
    const registry = new ToolRegistry();
    const provider = await loadMcpServers(
      { servers: { echo: stdioFixture('echo', [], { protocol: '2025' }) } },
      registry,
    );
    try {
      const result = await registry.get('echo__echo')!.execute('1', { text: 'x' }, AbortSignal.abort());
      expect(result.details).toMatchObject({ code: 'ABORTED' });
    } finally {
      await provider.close();
    }
  });

  it('caps long text results with a truncation notice', async () => {
    const registry = new ToolRegistry();
    const provider = await loadMcpServers(
      { servers: { echo: stdioFixture('echo', [], { protocol: '2025' }) } },
      registry,
      {
        maxResultChars: 10,
      },
    );
    try {
      const result = await registry.get('echo__echo')!.execute('1', { text: 'x'.repeat(50) });
      expect(result.content[0]).toEqual({ type: 'text', text: 'x'.repeat(10) });
      expect(textOf(result)).toContain('[Output truncated: showing 10 of 50 characters]');
    } finally {
      await provider.close();
    }
  });

  it('honours protocol: legacy (no probe) and a pin the server cannot meet', async () => {
    const registry = new ToolRegistry();
    const provider = await loadMcpServers(
      {
        servers: {
          plain: stdioFixture('echo', [], { protocol: '2025' }),
          pinned: stdioFixture('echo', ['--era', 'legacy'], { protocol: '2026-07-28' }),
        },
      },
      registry,
      { reconnect: { enabled: false } },
    );
    try {
      expect(provider.status('plain')).toMatchObject({ state: 'connected', era: 'legacy' });
      expect(provider.status('pinned')).toMatchObject({
        state: 'error',
        lastError: { code: 'CONNECTION_FAILED' },
      });
      expect(provider.status('pinned')?.nextRetryAt).toBeUndefined();
    } finally {
      await provider.close();
    }
  });

  it('uses the separator and length budget of the namespace option', async () => {
    const registry = new ToolRegistry();
    const provider = await loadMcpServers(
      {
        servers: {
          echo: stdioFixture('echo', [], { protocol: '2025', tools: { allow: ['echo', 'add'] } }),
        },
      },
      registry,
      { namespace: { separator: '-', maxLength: 40 } },
    );
    try {
      expect(registry.names().sort()).toEqual(['echo-add', 'echo-echo']);
    } finally {
      await provider.close();
    }
  });

  it('rejects with ABORTED when its own signal aborts, leaving nothing running', async () => {
    const registry = new ToolRegistry();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const outcome = await loadMcpServers({ servers: { hangs: stdioFixture('hang') } }, registry, {
      signal: controller.signal,
      connectTimeoutMs: 20_000,
    }).catch((error: unknown) => error);
    expect(McpToolsError.isInstance(outcome) && outcome.code).toBe('ABORTED');
    await waitUntil(
      () => childPidsMatching(fixtureEntry('hang')).length === 0,
      "until childPidsMatching(fixtureEntry('hang')).length === 0",
      5000,
    );
  });
});
