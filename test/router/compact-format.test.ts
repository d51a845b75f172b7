import { describe, expect, it } from 'vitest';
import { formatCompact } from '../../src/router/compact-format.js';

const ts = '2025-01-29T10:30:00Z';

describe('formatCompact', () => {
  it('renders a success in two lines with bare keys and the meta block', () => {
    const text = formatCompact({
      state: 'success',
      summary: 'resource read: file://readme.md (2.5 KiB)',
      data: {
        uri: 'file://readme.md',
        content: '# Project README\n\nThis',
        truncated: false,
        original_size: 2500,
      },
      time: 0.3,
      ts,
    });
    const lines = text.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('✅ mcp resource read: file://readme.md (2.5 KiB)');
    expect(lines[1]).toBe(
      '  state: success | data: {uri: "file://readme.md", content: "# Project README\\n\\nThis", truncated: false, original_size: 2500} | meta: {agent: mcp, time: 0.3, ts: "2025-01-29T10:30:00Z"}',
    );
  });

  it('renders a partial result with original_size and shown', () => {
    const text = formatCompact({
      state: 'partial',
      summary: 'resource read: file://large.json (truncated)',
      data: {
        uri: 'file://large.json',
        content: '{...}',
        truncated: true,
        original_size: 50000,
        shown: 1000,
      },
      time: 1.2,
      ts,
    });
    expect(
      text.startsWith('⚠️ mcp resource read: file://large.json (truncated)\n  state: partial | data: {'),
    ).toBe(true);
    expect(text).toContain('truncated: true, original_size: 50000, shown: 1000}');
  });

  it('renders an error with type, msg and recoverable', () => {
    const text = formatCompact({
      state: 'error',
      summary: 'ResourceNotFound: not found: file://missing.md',
      data: {
        type: 'ResourceNotFound',
        msg: "URI 'file://missing.md' not found on server 'filesystem'",
        recoverable: false,
      },
      time: 0.5,
      ts,
    });
    expect(text).toBe(
      `❌ mcp ResourceNotFound: not found: file://missing.md\n  state: error | data: {type: "ResourceNotFound", msg: "URI 'file://missing.md' not found on server 'filesystem'", recoverable: false} | meta: {agent: mcp, time: 0.5, ts: "${ts}"}`,
    );
  });

  it('quotes keys that are not identifiers, renders arrays and nested objects, and keeps the summary on one line', () => {
    const text = formatCompact({
      state: 'success',
      summary: 'two\nlines',
      data: { servers: [{ name: 'fs', resources: ['a://1'] }], 'odd-key': null },
      time: 0.12345,
      ts,
    });
    expect(text.split('\n')).toHaveLength(2);
    expect(text).toContain('✅ mcp two lines');
    expect(text).toContain('data: {servers: [{name: "fs", resources: ["a://1"]}], "odd-key": null}');
    expect(text).toContain('time: 0.123,');
  });

  it('stamps the current time in ISO form when ts is omitted', () => {
    const text = formatCompact({ state: 'success', summary: 's', data: {}, time: 0 });
    expect(text).toMatch(/ts: "\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z"}$/);
  });
});
