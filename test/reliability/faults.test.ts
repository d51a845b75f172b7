import { describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import type { ToolResult } from '../../src/tool/tool.js';
import { eventually, isAlive, stdioFixture, textOf } from '../mcp/hub-test-helpers.js';

/** Samples this process's RSS every 25 ms until stopped; returns the peak in MiB. */
function rssSampler(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  return {
    stop() {
      clearInterval(timer);
      return Math.round(Math.max(peak, process.memoryUsage().rss) / 1024 / 1024);
    },
  };
}

describe('kill -9 of one of five upstreams with calls in flight on all', () => {
  it('fails only its calls, promptly, while the others succeed; it reconnects and serves again', async () => {
    const registry = new ToolRegistry();
    const names = ['s0', 's1', 's2', 's3', 's4'];
    const provider = await loadMcpServers(
      {
        servers: Object.fromEntries(
          names.map((name) => [name, stdioFixture('echo', [], { protocol: '2025' })]),
        ),
      },
      registry,
      { connectTimeoutMs: 60_000, reconnect: { initialDelayMs: 200, maxDelayMs: 2000 } },
    );
    try {
      const victim = provider.status('s2')!.pid!;
      const settledAt = new Map<string, number>();
      const calls = names.flatMap((name) =>
        [0, 1, 2].map(async (index) => {
          const result: ToolResult = await registry
            .get(`${name}__slow`)!
            .execute(`${name}-${index}`, { ms: 2500, steps: 5 });
          settledAt.set(`${name}-${index}`, Date.now());
          return { name, result };
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 600));
      const killedAt = Date.now();
      process.kill(victim, 'SIGKILL');
      const outcomes = await Promise.all(calls);
      const victimDelays = [0, 1, 2].map((index) => settledAt.get(`s2-${index}`)! - killedAt);
      console.log(`kill -9 → victim's calls failed after ${victimDelays.join(', ')} ms`);
      for (const { name, result } of outcomes) {
        if (name === 's2') {
          expect(result.isError).toBe(true);
          expect(result.details).toMatchObject({ server: 's2' });
          expect(textOf(result)).toMatch(/exited|disconnected|closed/);
        } else {
          expect(result.isError).toBeUndefined();
          expect(textOf(result)).toBe('slept 2500ms in 5 steps');
        }
      }
      // Generous bound for a loaded CI machine; the measured figure is printed above.
      for (const delay of victimDelays) expect(delay).toBeLessThan(5000);
      expect(isAlive(victim)).toBe(false);
      expect(await eventually(() => provider.status('s2')?.state === 'connected', 30_000)).toBe(true);
      expect(textOf(await registry.get('s2__echo')!.execute('after', { text: 'back' }))).toBe('back');
    } finally {
      await provider.close();
    }
  });
});

describe('hostile upstreams beside a healthy one', () => {
  it('keeps serving the healthy server, caps what it must, reports the offender, memory bounded', async () => {
    const registry = new ToolRegistry();
    const warnings: string[] = [];
    const baseline = Math.round(process.memoryUsage().rss / 1024 / 1024);
    const sampler = rssSampler();
    const provider = await loadMcpServers(
      {
        servers: {
          good: stdioFixture('echo', [], { protocol: '2025' }),
          bad: stdioFixture('hostile'),
          // 20,000 tools and a 4.8 MB schema: listed, screened, never reconnected here.
          wide: stdioFixture('hostile', ['--tools', '20000', '--huge-schema', '4.8']),
        },
      },
      registry,
      { connectTimeoutMs: 90_000, callTimeoutMs: 30_000, reconnect: { initialDelayMs: 500 } },
    );
    provider.on('warning', (message) => warnings.push(message));
    const good = async () => textOf(await registry.get('good__echo')!.execute('g', { text: 'alive' }));
    try {
      expect(provider.status('wide')?.toolCount).toBe(20_010);
      expect(JSON.stringify(registry.get('wide__huge_schema')!.parameters).length).toBeLessThan(1000);
      expect(await good()).toBe('alive');

      const progress: number[] = [];
      const flood = await registry
        .get('bad__progress_flood')!
        .execute('p', { count: 10_000 }, undefined, (update) => {
          progress.push((update as { progress?: { progress: number } }).progress?.progress ?? 0);
        });
      expect(textOf(flood)).toBe('sent 10000 progress notifications');
      expect(progress.length).toBeGreaterThan(0);
      expect(await good()).toBe('alive');

      const stderr = await registry.get('bad__stderr_flood')!.execute('e', { mb: 100 });
      expect(textOf(stderr)).toBe('flooded stderr');
      expect(await good()).toBe('alive');

      const big = await registry.get('bad__big_result')!.execute('b', { mb: 50 });
      expect(big.isError).toBe(true);
      console.log(`50 MB result → ${textOf(big).slice(0, 300)}`);
      await eventually(() => provider.status('bad')?.state === 'connected', 90_000);
      expect(await good()).toBe('alive');

      const deep = await registry.get('bad__deep_result')!.execute('d', { depth: 10_000 });
      expect(textOf(deep)).toContain('nested deeper than 128 levels');
      expect(await good()).toBe('alive');

      // One line of 200 MB: the SDK's 10 MiB stdio buffer gives up on the connection, the
      // offender is reported and reconnected; the healthy server never notices.
      const line = await registry.get('bad__huge_line')!.execute('l', { mb: 200 });
      expect(line.isError).toBe(true);
      console.log(`200 MB line → ${textOf(line).slice(0, 300)}`);
      expect(await good()).toBe('alive');
      expect(await eventually(() => provider.status('bad')?.state === 'connected', 90_000)).toBe(true);
      expect(textOf(await registry.get('bad__ok')!.execute('o', {}))).toBe('ok');
    } finally {
      await provider.close();
      const peak = sampler.stop();
      console.log(
        `hostile upstreams: RSS baseline ${baseline} MiB, peak ${peak} MiB (+${peak - baseline} MiB)`,
      );
      // The bound: the SDK's 10 MiB stdio buffer and result cap, not the 200 MB the server sent.
      expect(peak - baseline).toBeLessThan(768);
    }
  });
});
