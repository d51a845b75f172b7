import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardsConfig } from '../../src/config/guards-config.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import type { ToolResult } from '../../src/tool/tool.js';
import { caughtMcpToolsError } from '../caught-error.js';
import { createCanaryServer } from '../fixtures/servers/canary-server.js';

/** The header value the detector requires, made up for this run; it must never show anywhere. */
const TOKEN = `dlp-${randomBytes(12).toString('hex')}`;
/** What the loopback detector flags: the word `PROJECT-ORCHID` (an organisation's code name). */
const CODE_NAME = 'PROJECT-ORCHID';

interface Seen {
  authorization: string | undefined;
  body: { version: number; texts: { location: string; text: string }[] };
}

/**
 * A detector on 127.0.0.1 speaking the documented contract: it refuses a request without the
 * token, and finds the code name in each text. `mode` makes it fail in one way at a time.
 */
let mode: 'ok' | 'status' | 'garbage' | 'outside' | 'silent' | 'whole' = 'ok';
const seen: Seen[] = [];
const hanging: ServerResponse[] = [];
let detector: Server;
let url: string;

function answer(request: IncomingMessage, response: ServerResponse, raw: string): void {
  const body = JSON.parse(raw) as Seen['body'];
  seen.push({ authorization: request.headers.authorization, body });
  if (request.headers.authorization !== `Bearer ${TOKEN}`) {
    response.writeHead(401).end();
    return;
  }
  if (mode === 'status') return void response.writeHead(503).end('down');
  if (mode === 'garbage') return void response.writeHead(200).end('{"findings": "none"}');
  if (mode === 'silent') return void hanging.push(response);
  const findings = body.texts.flatMap((item, index) => {
    const at = item.text.indexOf(CODE_NAME);
    if (at === -1) return [];
    if (mode === 'outside')
      return [{ text: index, detector: 'code-name', start: at, end: item.text.length + 5 }];
    if (mode === 'whole') return [{ text: index, detector: 'code-name' }];
    return [{ text: index, detector: 'code-name', start: at, end: at + CODE_NAME.length, severity: 'high' }];
  });
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ findings }));
}

beforeAll(async () => {
  detector = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => answer(request, response, raw));
  });
  await new Promise<void>((resolve) => detector.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(detector.address() as AddressInfo).port}/scan`;
});

afterAll(async () => {
  for (const response of hanging) response.destroy();
  detector.closeAllConnections();
  await new Promise((resolve) => detector.close(resolve));
});

const everything = (result: ToolResult) => JSON.stringify(result);

describe('the http detector', () => {
  const opened: McpToolHub[] = [];
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcptools-http-detector-'));
  });
  afterAll(async () => {
    for (const provider of opened) await provider.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A registry over the canary fixture with `guards`, read from a configuration with `${DLP_TOKEN}`. */
  const open = async (guards: Omit<GuardsConfig, 'http'>, http: Record<string, unknown> = {}) => {
    const audit = join(dir, `audit-${randomBytes(4).toString('hex')}.jsonl`);
    const config = parseConfig(
      {
        servers: {},
        policies: {
          guards: {
            ...guards,
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax, read by parseConfig
            http: { url, headers: { authorization: 'Bearer ${DLP_TOKEN}' }, ...http },
          },
          audit: { file: audit },
        },
      },
      { env: { ...process.env, DLP_TOKEN: TOKEN } },
    );
    const errors: string[] = [];
    const registry = new ToolRegistry({ onPipelineError: (message) => errors.push(message) });
    // The subject is the detector, not a transport: the canary fixture runs in this process.
    const provider = await loadMcpServers(config, registry, {
      inProcessServers: { canary: { server: createCanaryServer } },
    });
    opened.push(provider);
    const echo = (text: string) => registry.get('canary__echo_everywhere')!.execute('1', { text });
    return { registry, provider, echo, errors, audit };
  };

  it('posts each text of a result with the configured header and redacts what it finds, in text, structuredContent and an embedded resource', async () => {
    mode = 'ok';
    seen.length = 0;
    const { echo } = await open({ results: { http: 'redact' } });
    const result = await echo(`plans for ${CODE_NAME} attached`);
    expect(everything(result)).not.toContain(CODE_NAME);
    expect(result.content[0]).toEqual({
      type: 'text',
      text: 'echo: plans for [redacted: http:code-name] attached',
    });
    expect((result.content[1] as { resource: { text: string } }).resource.text).toContain(
      '[redacted: http:code-name]',
    );
    expect(result.structuredContent).toMatchObject({ echo: 'plans for [redacted: http:code-name] attached' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen[0]!.body.version).toBe(1);
    expect(seen[0]!.body.texts.map((item) => item.location)).toEqual([
      'content[0].text',
      'content[1].resource.text',
      'structuredContent.echo',
    ]);
    // The control: a result the detector finds nothing in passes untouched.
    const plain = await echo('opening hours');
    expect(plain.content[0]).toEqual({ type: 'text', text: 'echo: opening hours' });
  });

  it('redacts the whole text when a finding has no range, and blocks the arguments when told to', async () => {
    mode = 'whole';
    const { echo } = await open({ results: { http: 'redact' }, arguments: {} });
    const result = await echo(`about ${CODE_NAME}`);
    expect(result.content[0]).toEqual({ type: 'text', text: '[redacted: http:code-name]' });
    mode = 'ok';
    const guarded = await open({ arguments: { http: 'block' } });
    const blocked = await guarded.echo(`send ${CODE_NAME}`);
    expect(blocked.isError).toBe(true);
    expect(everything(blocked)).toContain('http:code-name at arguments.text');
    expect(everything(blocked)).not.toContain(CODE_NAME);
    expect((await guarded.echo('nothing')).isError).toBeFalsy();
  });

  it.each([
    ['an error status', 'status', {}, 'it answered HTTP 503'],
    [
      'an answer that is not the contract',
      'garbage',
      {},
      'its answer is not { findings: [...] } as documented',
    ],
    ['a range outside its text', 'outside', {}, 'its answer has a range outside its text'],
    ['no answer in time', 'silent', { timeoutMs: 300 }, 'no answer within 300 ms'],
    ['a body over maxBytes', 'ok', { maxBytes: 64 }, 'over maxBytes (64)'],
  ] as const)(
    'fails closed for block on %s: the result is withheld and the failure reported without the token',
    async (_label, how, http, why) => {
      mode = how;
      const { echo, errors } = await open({ results: { http: 'block' } }, http);
      const result = await echo(`plans for ${CODE_NAME} and a long tail of words to pass the cap`);
      expect(result.isError).toBe(true);
      expect(everything(result)).not.toContain(CODE_NAME);
      expect(everything(result)).toContain('Tool result withheld: screening by guards failed');
      expect(errors.join('\n')).toContain(why);
      expect(errors.join('\n')).toContain('onFailure: closed');
      expect(errors.join('\n')).not.toContain(TOKEN);
      expect(errors.join('\n')).not.toContain(url);
    },
  );

  it('fails open for annotate (and where onFailure says open): the result passes, the failure is in the audit log', async () => {
    mode = 'status';
    const { echo, provider, audit } = await open({ results: { http: 'annotate' } });
    const result = await echo('plain words');
    expect(result.content[0]).toEqual({ type: 'text', text: 'echo: plain words' });
    const opened = await open({ results: { http: 'block' } }, { onFailure: 'open' });
    expect((await opened.echo('plain words')).isError).toBeFalsy();
    await provider.close();
    const log = readFileSync(audit, 'utf8');
    expect(log).not.toContain(TOKEN);
    expect(JSON.parse(log.trim().split('\n')[0]!).decisions).toContainEqual({
      by: 'guards',
      decision: 'error',
      reason: 'the http detector failed: it answered HTTP 503; passed without it (onFailure: open)',
    });
  });

  it('screens resource reads and prompts too: redacts what it finds, and refuses the read when it fails closed', async () => {
    mode = 'ok';
    const { provider } = await open({ results: { http: 'redact' } });
    const read = await provider.resources.read('canary', `canary://echo/${encodeURIComponent(CODE_NAME)}`);
    expect(read[0]!.text).toBe('resource: [redacted: http:code-name]');
    const prompt = await provider.prompts.get('canary', 'echo_prompt', { text: CODE_NAME });
    expect(JSON.stringify(prompt)).not.toContain(CODE_NAME);
    expect((await provider.resources.read('canary', 'canary://echo/hello'))[0]!.text).toBe('resource: hello');
    mode = 'status';
    const closed = await open({ results: { http: 'block' } });
    const warnings: string[] = [];
    closed.provider.on('warning', (message) => warnings.push(message));
    const refused = await caughtMcpToolsError(() =>
      closed.provider.resources.read('canary', 'canary://echo/hello'),
    );
    expect(refused.code).toBe('PERMISSION_DENIED');
    expect(refused.message).toContain('withheld by mcptools guards: a detector failed');
    expect(warnings.join('\n')).toContain('it answered HTTP 503 (onFailure: closed)');
    expect(warnings.join('\n')).not.toContain(TOKEN);
  });

  it('refuses a configuration that names the http detector without configuring it, or an unset header variable', async () => {
    const missing = await caughtMcpToolsError(() =>
      parseConfig(
        { servers: {}, policies: { guards: { results: { http: 'block' } } } },
        { file: 'mcptools.json' },
      ),
    );
    expect(missing.message).toContain('policies.guards.http (its url) is not configured');
    const unset = await caughtMcpToolsError(() =>
      parseConfig(
        {
          servers: {},
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax, read by parseConfig
          policies: { guards: { http: { url, headers: { authorization: 'Bearer ${NOT_SET_HERE}' } } } },
        },
        { file: 'mcptools.json', env: {} },
      ),
    );
    expect(unset.message).toContain('policies.guards.http.headers.authorization');
    expect(unset.message).toContain('NOT_SET_HERE');
  });
});
