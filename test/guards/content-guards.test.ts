import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardsConfig } from '../../src/config/guards-config.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import type { ApprovalDecision, ApprovalRequest } from '../../src/tool/approval.js';
import type { ToolResult } from '../../src/tool/tool.js';
import { createCanaryServer } from '../fixtures/servers/canary-server.js';

/** A GitHub token of the real format, made up for this run (never a real one). */
const CANARY = `ghp_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;

const everything = (result: ToolResult) => JSON.stringify(result);

describe.each([
  { label: 'the 2025 era', protocol: '2025' as const },
  { label: '2026-07-28', protocol: '2026-07-28' as const },
])('content guards over $label', (variant) => {
  let dir: string;
  const open = async (guards: GuardsConfig) => {
    const registry = new ToolRegistry();
    const audit = join(dir, `audit-${randomBytes(4).toString('hex')}.jsonl`);
    // The subject is the guards, not a transport: the canary fixture runs in this process.
    const provider = await loadMcpServers(
      { servers: {}, policies: { guards, audit: { file: audit } } },
      registry,
      { inProcessServers: { canary: { server: createCanaryServer, protocol: variant.protocol } } },
    );
    return { registry, provider, audit };
  };
  const opened: McpToolHub[] = [];

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

  it('holds a result with a secret until the approval handler allows it; refused, the caller gets a refusal without the value', async () => {
    const { registry, provider, audit } = await open({ results: { secrets: 'requireApproval' } });
    opened.push(provider);
    const asked: ApprovalRequest[] = [];
    let answer: ApprovalDecision = 'deny';
    registry.onApproval((request) => {
      asked.push(request);
      return answer;
    });
    const echo = registry.get('canary__echo_everywhere')!;
    const refused = await echo.execute('1', { text: `key ${CANARY}` });
    expect(refused.isError).toBe(true);
    expect(everything(refused)).not.toContain(CANARY);
    expect(everything(refused)).toContain('Denied: Result of canary__echo_everywhere');
    expect(everything(refused)).toContain('its result was withheld');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      pluginId: 'guards',
      onResult: true,
      allowedDecisions: ['allow-once', 'deny'],
      description: expect.stringContaining('secret:GITHUB_TOKEN at content[0].text'),
    });
    expect(JSON.stringify(asked[0])).not.toContain(CANARY);
    answer = 'allow-once';
    const approved = await echo.execute('2', { text: `key ${CANARY}` });
    expect(approved.isError).toBeFalsy();
    expect(approved.content[0]).toEqual({ type: 'text', text: `echo: key ${CANARY}` });
    // Once only: the next flagged result is asked about again.
    answer = 'deny';
    expect((await echo.execute('3', { text: CANARY })).isError).toBe(true);
    expect(asked).toHaveLength(3);
    // The control: a result without a finding is not held, and nobody is asked.
    const plain = await echo.execute('4', { text: 'nothing secret' });
    expect(plain.content[0]).toEqual({ type: 'text', text: 'echo: nothing secret' });
    expect(asked).toHaveLength(3);
    await provider.close();
    const records = readFileSync(audit, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records[0].outcome).toBe('denied');
    expect(records[0].decisions).toContainEqual({
      by: 'guards',
      decision: 'requireApproval',
      reason: 'secret:GITHUB_TOKEN at content[0].text',
    });
    expect(records[0].decisions).toContainEqual({ by: 'guards', decision: 'deny' });
    expect(records[1].decisions).toContainEqual({ by: 'guards', decision: 'allow-once' });
  });

  it('refuses a held result when no approval handler can be asked', async () => {
    const { registry, provider } = await open({ results: { secrets: 'requireApproval' } });
    opened.push(provider);
    const result = await registry.get('canary__echo_everywhere')!.execute('1', { text: CANARY });
    expect(result.isError).toBe(true);
    expect(everything(result)).not.toContain(CANARY);
    expect(everything(result)).toContain('Approval unavailable: nobody could be asked');
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

describe.each([
  { label: 'the 2025 era', protocol: '2025' as const },
  { label: '2026-07-28', protocol: '2026-07-28' as const },
])('content guards on resources/read and prompts/get over $label', (variant) => {
  const opened: McpToolHub[] = [];
  const open = async (guards: GuardsConfig) => {
    const provider = await loadMcpServers({ servers: {}, policies: { guards } }, new ToolRegistry(), {
      inProcessServers: { canary: { server: createCanaryServer, protocol: variant.protocol } },
    });
    opened.push(provider);
    return provider;
  };
  afterAll(async () => {
    for (const provider of opened) await provider.close();
  });

  it('redacts a secret in a resource read and in a prompt (message text and embedded resource)', async () => {
    const provider = await open({ results: { secrets: 'redact' } });
    const warnings: string[] = [];
    provider.on('warning', (message) => warnings.push(message));
    const read = await provider.resources.read(
      'canary',
      `canary://echo/${encodeURIComponent(`key ${CANARY}`)}`,
    );
    // (The URI is the caller's own, as it asked for it.)
    expect(JSON.stringify(read.map((item) => item.text))).not.toContain(CANARY);
    expect(read[0]!.text).toBe('resource: key [redacted: secret:GITHUB_TOKEN]');
    const prompt = await provider.prompts.get('canary', 'echo_prompt', { text: `key ${CANARY}` });
    expect(JSON.stringify(prompt)).not.toContain(CANARY);
    expect(prompt.messages.map((message) => message.content)).toEqual([
      { type: 'text', text: 'prompt: key [redacted: secret:GITHUB_TOKEN]' },
      {
        type: 'resource',
        resource: {
          uri: 'canary://echo',
          mimeType: 'text/plain',
          text: 'embedded: key [redacted: secret:GITHUB_TOKEN]',
        },
      },
    ]);
    // Reported by detector and place, never by value.
    expect(warnings.join('\n')).toContain('secret:GITHUB_TOKEN at messages[1].content.resource.text');
    expect(warnings.join('\n')).not.toContain(CANARY);
    // The control: plain text passes untouched.
    expect((await provider.resources.read('canary', 'canary://echo/hello'))[0]!.text).toBe('resource: hello');
    expect((await provider.prompts.get('canary', 'echo_prompt', { text: 'hello' })).messages).toHaveLength(2);
  });

  it('refuses a resource read or a prompt with a secret when the policy says block, and annotates an injection phrase', async () => {
    const provider = await open({ results: { secrets: 'block', injection: 'annotate' } });
    await expect(provider.resources.read('canary', `canary://echo/${CANARY}`)).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('withheld by mcptools guards: it contains secret:GITHUB_TOKEN'),
    });
    await expect(provider.prompts.get('canary', 'echo_prompt', { text: CANARY })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    const scraped = await provider.resources.read('canary', 'canary://scraped');
    expect(scraped).toHaveLength(2);
    expect(scraped[1]!.text).toContain('instructions:override at contents[0].text');
    const plain = await provider.resources.read('canary', 'canary://echo/opening%20hours');
    expect(plain).toHaveLength(1);
  });
});

describe('personal data guards', () => {
  let provider: McpToolHub;
  const registry = new ToolRegistry();
  beforeAll(async () => {
    provider = await loadMcpServers(
      {
        servers: {},
        policies: { guards: { results: { personalData: 'redact' } } },
      },
      registry,
      { inProcessServers: { canary: { server: createCanaryServer } } },
    );
  });
  afterAll(async () => {
    await provider?.close();
  });
  const echo = async (text: string) =>
    ((await registry.get('canary__echo_everywhere')!.execute('p', { text })).content[0] as { text: string })
      .text;

  it.each([
    ['an email address', 'write to jane.doe@example.org today', 'personal-data:email'],
    ['a phone number with its country code', 'call +44 20 7946 0958 now', 'personal-data:phone'],
    ['a card number passing the Luhn check', 'card 4111 1111 1111 1111 ok', 'personal-data:card'],
    [
      'an IBAN passing its mod-97 check',
      'pay to DE89 3704 0044 0532 0130 00 AND thanks',
      'personal-data:iban',
    ],
  ])('redacts %s', async (_label, text, detector) => {
    const echoed = await echo(text);
    expect(echoed).toContain(`[redacted: ${detector}]`);
    expect(echoed.split(`[redacted: ${detector}]`)).toHaveLength(2);
  });

  it('leaves look-alikes alone: a failed Luhn digit, a failed IBAN check, an SSH remote, a version, a date, a national number', async () => {
    const benign =
      'order 4111 1111 1111 1112, ref DE89 3704 0044 0532 0130 01, git@github.com:owner/repo, pkg@1.2.3, v10.20.30, 2026-11-29, 020 7946 0958';
    expect(await echo(benign)).toBe(`echo: ${benign}`);
  });
});

describe('personal data guards with a default region', () => {
  let provider: McpToolHub;
  const registry = new ToolRegistry();
  beforeAll(async () => {
    provider = await loadMcpServers(
      {
        servers: {},
        policies: { guards: { results: { personalData: 'redact' }, personalData: { defaultRegion: 'US' } } },
      },
      registry,
      { inProcessServers: { canary: { server: createCanaryServer } } },
    );
  });
  afterAll(async () => {
    await provider?.close();
  });
  const echo = async (text: string) =>
    ((await registry.get('canary__echo_everywhere')!.execute('p', { text })).content[0] as { text: string })
      .text;

  it.each([
    ['(212) 555-0142', 'call (212) 555-0142 today'],
    ['212-456-7890', 'or 212-456-7890, ask for Sam'],
    ['+44 20 7946 0958 (international, still found)', 'London: +44 20 7946 0958.'],
  ])('redacts a number written %s', async (_label, text) => {
    const echoed = await echo(text);
    expect(echoed.split('[redacted: personal-data:phone]')).toHaveLength(2);
  });

  it('leaves a national number of another region, dates, versions, decimals, timestamps, order numbers and ports alone', async () => {
    const benign =
      'order 4111 1111 1111 1112, 020 7946 0958, 2026-11-29, v10.20.30, 1.2.3456789, 127.0.0.1:8080, id 123456, build 20261129, Chrome 53.0.2785.143, ratio 0.8164965809, expires 1620499962, 1.4.15   199175352 bytes';
    expect(await echo(benign)).toBe(`echo: ${benign}`);
  });

  it('refuses a configuration whose region is not a code', async () => {
    const { parseConfig } = await import('../../src/config/parse-config.js');
    expect(() =>
      parseConfig(
        { servers: {}, policies: { guards: { personalData: { defaultRegion: 'usa' } } } },
        { file: 'mcptools.json' },
      ),
    ).toThrow(/policies\.guards\.personalData\.defaultRegion.*ISO 3166-1 alpha-2/);
  });
});
