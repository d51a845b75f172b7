import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardsConfig } from '../../src/config/guards-config.js';
import { loadMCPServers } from '../../src/mcp/load-mcp-servers.js';
import type { MCPToolProvider } from '../../src/mcp/provider-types.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import type { ToolResult } from '../../src/tool/tool.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';

/** A GitHub token of the real format, made up for this run (never a real one). */
const CANARY = `ghp_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;

const everything = (result: ToolResult) => JSON.stringify(result);

describe.each([
  { label: 'stdio, 2025 era', args: ['--era', 'legacy'], protocol: undefined },
  { label: 'stdio, 2026-07-28', args: [], protocol: '2026-07-28' as const },
])('content guards over $label', (variant) => {
  let dir: string;
  const open = async (guards: GuardsConfig) => {
    const registry = new ToolRegistry();
    const audit = join(dir, `audit-${randomBytes(4).toString('hex')}.jsonl`);
    const server = stdioFixture(
      'canary',
      variant.args,
      variant.protocol ? { protocol: variant.protocol } : {},
    );
    const provider = await loadMCPServers(
      { servers: { canary: server }, policies: { guards, audit: { file: audit } } },
      registry,
    );
    return { registry, provider, audit };
  };
  const opened: MCPToolProvider[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcptools-guards-'));
  });
  afterAll(async () => {
    for (const provider of opened) await provider.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('redacts a secret an upstream echoes in text, structuredContent and an embedded resource; the audit log names the detector, never the value', async () => {
    const { registry, provider, audit } = await open({ results: { secrets: 'redact' } });
    opened.push(provider);
    const result = await registry.get('canary__echo_everywhere')!.execute('1', { text: `key ${CANARY} end` });
    expect(everything(result)).not.toContain(CANARY);
    expect(result.content[0]).toEqual({
      type: 'text',
      text: 'echo: key [redacted: secret:GITHUB_TOKEN] end',
    });
    expect((result.content[1] as { resource: { text: string } }).resource.text).toBe(
      'resource: key [redacted: secret:GITHUB_TOKEN] end',
    );
    // structuredContent keeps its shape: still a string and a number.
    expect(result.structuredContent).toEqual({
      echo: 'key [redacted: secret:GITHUB_TOKEN] end',
      length: 8 + CANARY.length,
    });
    // The control: text without a secret passes untouched.
    const plain = await registry.get('canary__echo_everywhere')!.execute('2', { text: 'just words' });
    expect(plain.content[0]).toEqual({ type: 'text', text: 'echo: just words' });
    await provider.close();
    const log = readFileSync(audit, 'utf8');
    expect(log).not.toContain(CANARY);
    const records = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records[0].decisions).toContainEqual({
      by: 'guards',
      decision: 'redact',
      reason: 'secret:GITHUB_TOKEN at content[0].text',
    });
    expect(records[0].decisions).toContainEqual({
      by: 'guards',
      decision: 'redact',
      reason: 'secret:GITHUB_TOKEN at structuredContent.echo',
    });
    expect(records[1].decisions).toEqual([]);
  });

  it('blocks such a result when the policy says block', async () => {
    const { registry, provider } = await open({ results: { secrets: 'block' } });
    opened.push(provider);
    const result = await registry.get('canary__echo_everywhere')!.execute('1', { text: CANARY });
    expect(result.isError).toBe(true);
    expect(everything(result)).not.toContain(CANARY);
    expect(everything(result)).toContain('withheld by mcptools guards');
    expect(
      (await registry.get('canary__echo_everywhere')!.execute('2', { text: 'fine' })).isError,
    ).toBeFalsy();
  });

  it('annotates a result with an injection phrase, and leaves an ordinary one alone', async () => {
    const { registry, provider } = await open({ results: { injection: 'annotate' } });
    opened.push(provider);
    const result = await registry.get('canary__scraped_page')!.execute('1', {});
    expect(result.content).toHaveLength(2);
    expect(result.content[1]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('instructions:override at content[0].text'),
    });
    const plain = await registry.get('canary__echo_everywhere')!.execute('2', { text: 'opening hours' });
    expect(plain.content).toHaveLength(2);
  });

  it('blocks a secret in the arguments before the call is sent', async () => {
    const { registry, provider } = await open({ arguments: { secrets: 'block' } });
    opened.push(provider);
    const result = await registry.get('canary__echo_everywhere')!.execute('1', { text: `token ${CANARY}` });
    expect(result.isError).toBe(true);
    expect(everything(result)).not.toContain(CANARY);
    expect(everything(result)).toContain('secret:GITHUB_TOKEN at arguments.text');
    const plain = await registry.get('canary__echo_everywhere')!.execute('2', { text: 'nothing secret' });
    expect(plain.content[0]).toEqual({ type: 'text', text: 'echo: nothing secret' });
  });
});
