import { describe, expect, it } from 'vitest';
import { durationMs, MAX_DURATION_MS } from '../../src/config/duration.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { caughtMcpToolsError } from '../caught-error.js';

describe('durations in a configuration', () => {
  it('clamps a timeout above 2^31-1 ms to what a timer holds instead of letting it fire at once', () => {
    const config = parseConfig(
      { servers: { a: { command: 'x', callTimeoutMs: 3e9, connectTimeoutMs: 1e12 } } },
      { env: {} },
    );
    expect(config.servers.a).toMatchObject({
      callTimeoutMs: MAX_DURATION_MS,
      connectTimeoutMs: MAX_DURATION_MS,
    });
  });

  it.each([
    [{ command: 'x', callTimeoutMs: -5 }, 'callTimeoutMs'],
    [{ command: 'x', connectTimeoutMs: 0 }, 'connectTimeoutMs'],
    [{ command: 'x', callTimeoutMs: 'soon' }, 'callTimeoutMs'],
  ])('refuses %j with CONFIG_INVALID naming the field', async (entry, field) => {
    const error = await caughtMcpToolsError(() =>
      parseConfig({ servers: { a: entry } }, { file: 'mcptools.json', env: {} }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(`mcptools.json: server "a": field "${field}"`);
  });

  it('names Codex seconds fields in their own words', async () => {
    const error = await caughtMcpToolsError(() =>
      parseConfig(
        { mcp_servers: { a: { command: 'x', tool_timeout_sec: -1 } } },
        { file: 'config.toml', env: {} },
      ),
    );
    expect(error.message).toContain('field "tool_timeout_sec"');
    const clamped = parseConfig({ mcp_servers: { a: { command: 'x', tool_timeout_sec: 1e7 } } }, { env: {} });
    expect(clamped.servers.a?.callTimeoutMs).toBe(MAX_DURATION_MS);
  });
});

describe('durationMs (shared by the library options and the CLI flags)', () => {
  it('reads numbers and numeric text, rounds up and clamps', () => {
    expect(durationMs('1e3', '--timeout')).toBe(1000);
    expect(durationMs(0.2, 'x')).toBe(1);
    expect(durationMs(3e9, 'callTimeoutMs')).toBe(MAX_DURATION_MS);
    expect(durationMs(Number.POSITIVE_INFINITY, 'x')).toBe(MAX_DURATION_MS);
    expect(durationMs(0, 'initialDelayMs', { allowZero: true })).toBe(0);
  });

  it.each([-1, Number.NaN, 'abc', '', 0, undefined])('refuses %j naming the field', async (value) => {
    const error = await caughtMcpToolsError(() => durationMs(value, '--connect-timeout'));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toMatch(/^--connect-timeout must be a positive number of milliseconds \(got /);
    expect(error.data.field).toBe('--connect-timeout');
  });
});
