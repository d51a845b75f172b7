import { describe, expect, it } from 'vitest';
import { capResultText, errorResult, textResult, toOpenClawResult } from '../../src/tool/result.js';
import type { ToolResult } from '../../src/tool/tool.js';
import { truncateChars, truncateUtf8 } from '../../src/tool/truncate.js';

describe('truncateUtf8', () => {
  it('never splits a multi-byte character at the byte cap', () => {
    const text = `${'a'.repeat(1023)}€b`; // '€' is bytes 1023..1025
    for (const cap of [1023, 1024, 1025]) {
      const cut = truncateUtf8(text, cap);
      expect(cut.text).toBe('a'.repeat(1023));
      expect(cut.truncated).toBe(true);
      expect(cut.originalSize).toBe(1027);
    }
    expect(truncateUtf8(text, 1026).text).toBe(`${'a'.repeat(1023)}€`);
    expect(truncateUtf8('😀', 3).text).toBe('');
    expect(truncateUtf8('short', 100)).toEqual({
      text: 'short',
      truncated: false,
      originalSize: 5,
      shownSize: 5,
    });
  });
});

describe('truncateChars', () => {
  it('does not split a surrogate pair', () => {
    const cut = truncateChars('ab😀c', 3);
    expect(cut.text).toBe('ab');
    expect(cut.truncated).toBe(true);
  });
});

describe('toOpenClawResult', () => {
  it('keeps text and images and degrades audio, resources and links as OpenClaw’s blocks allow', () => {
    const result: ToolResult = {
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'audio', data: 'A'.repeat(4096), mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inline text' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAA' } },
        { type: 'resource_link', uri: 'file:///c', name: 'c' },
      ],
      structuredContent: { ok: true },
    };
    const degraded = toOpenClawResult(result);
    expect(degraded.content).toEqual([
      { type: 'text', text: 'hello' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'text', text: '[Audio result: audio/wav, 3.0 KiB]' },
      { type: 'text', text: 'inline text' },
      { type: 'text', text: '[Resource: file:///b.bin]' },
      { type: 'text', text: '[Resource link: file:///c (c)]' },
    ]);
    expect(degraded.structuredContent).toEqual({ ok: true });
  });
});

describe('capResultText', () => {
  it('cuts text past the cap with a notice naming the original size and never cuts base64', () => {
    const image = { type: 'image' as const, data: 'x'.repeat(500), mimeType: 'image/png' };
    const capped = capResultText(
      { content: [{ type: 'text', text: 'a'.repeat(80) }, image, { type: 'text', text: 'b'.repeat(80) }] },
      100,
    );
    expect(capped.content[0]).toEqual({ type: 'text', text: 'a'.repeat(80) });
    expect(capped.content[1]).toBe(image);
    expect(capped.content[2]).toEqual({ type: 'text', text: 'b'.repeat(20) });
    expect(capped.content[3]).toEqual({
      type: 'text',
      text: '[Output truncated: showing 100 of 160 characters]',
    });
  });

  it('returns a result under the cap untouched', () => {
    const result = textResult('small');
    expect(capResultText(result, 100)).toBe(result);
    expect(errorResult('bad').isError).toBe(true);
  });
});
