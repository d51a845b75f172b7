import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activateGatewayChain, REACH_HEADER } from '../../src/chain/gateway-chain.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import type { Tool } from '../../src/tool/tool.js';
import { initializeRequest } from '../helpers/initialize-request.js';

/*
 * The gateway's two HTTP faces, the web `fetch` and the Node server `listen` starts, go through
 * one routing: the same requests, sent to the same gateway through each face, get the same
 * status, the same headers that carry meaning and the same body. The requests cover every stop
 * before the route (the readiness probe, the OAuth metadata, the front door, Host and Origin,
 * the body cap and parse) and the routes behind it (status, both MCP eras, an unknown path).
 */

const TOKEN = 'faces-static-token-0123456789';
const MAX_BODY = 4096;
/** Headers whose presence or value is part of the answer (hop-by-hop and framing ones are not). */
const MEANINGFUL = [
  'content-type',
  'www-authenticate',
  'access-control-allow-origin',
  'access-control-allow-methods',
  'allow',
  'cache-control',
  'retry-after',
  'location',
  REACH_HEADER,
];

const echo: Tool = {
  name: 'echo',
  description: 'Echoes its text',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: async (_id, params) => ({ content: [{ type: 'text', text: String(params.text) }] }),
};

let hub: McpToolHub;
let gateway: Gateway;
let origin: string;
let reach: string;

beforeAll(async () => {
  // A gateway's answers tell who is reachable through it (the reach header), on both faces.
  reach = activateGatewayChain('faces-test').token;
  const registry = new ToolRegistry();
  registry.register(echo);
  hub = await loadMcpServers({ servers: {} }, registry);
  gateway = createGateway({
    registry,
    hub,
    maxBodyBytes: MAX_BODY,
    config: {
      servers: {},
      gateway: {
        tokens: { ci: { token: TOKEN } },
        // Metadata only: no token below is sent to this issuer (the static token is matched first).
        auth: { type: 'oauth', issuer: 'http://127.0.0.1:9/', audience: 'http://127.0.0.1/mcp' },
      },
    },
  });
  const { url } = await gateway.listen({ host: '127.0.0.1', port: 0 });
  origin = new URL(url).origin;
});

afterAll(async () => {
  await gateway?.close();
  await hub?.close();
});

interface Sent {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Sent in chunks, its length not declared (else declared in `Content-Length`, as clients do). */
  chunked?: boolean;
}

/** The headers of `sent` as they go out: a body's length declared unless it is sent in chunks. */
const headersOf = (sent: Sent, host: string): Record<string, string> => ({
  host,
  ...(sent.body === undefined || sent.chunked
    ? {}
    : { 'content-length': String(Buffer.byteLength(sent.body)) }),
  ...(sent.chunked ? { 'transfer-encoding': 'chunked' } : {}),
  ...sent.headers,
});

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

/** An answer's body as compared: JSON parsed, an SSE stream as the JSON of its events, else text; numbers that tell time left out. */
function comparable(contentType: string | null, text: string): unknown {
  const strip = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value), (key, inner) => (key === 'uptimeSeconds' ? '(time)' : inner));
  if (contentType?.startsWith('application/json')) return strip(JSON.parse(text));
  if (contentType?.startsWith('text/event-stream'))
    return [...text.matchAll(/^data: (.+)$/gm)].map((match) => strip(JSON.parse(match[1] as string)));
  return text.replace(/<span id="uptime">[^<]*<\/span>/, '(time)');
}

const answerOf = (status: number, headers: { get(name: string): string | null }, text: string): Answer => ({
  status,
  headers: Object.fromEntries(MEANINGFUL.map((name) => [name, headers.get(name)])),
  body: comparable(headers.get('content-type'), text),
});

/** Through the web face: `gateway.fetch`, with the headers exactly as given (a `Host` too). */
async function throughFetch(sent: Sent): Promise<Answer> {
  const { body, chunked } = sent;
  const headers = headersOf(sent, new URL(origin).host);
  // A stream's length is not known: the web face then sees no `Content-Length`, as the Node face does.
  if (chunked) delete headers['transfer-encoding'];
  const response = await gateway.fetch(
    new Request(`${origin}${sent.path}`, {
      method: sent.method ?? 'GET',
      headers,
      ...(body === undefined ? {} : chunked ? { body: new Blob([body]).stream(), duplex: 'half' } : { body }),
    } as RequestInit),
  );
  return answerOf(response.status, response.headers, await response.text());
}

/** Through the Node face: the listening server, over a socket, with the headers exactly as given. */
function throughNode(sent: Sent): Promise<Answer> {
  const url = new URL(sent.path, origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: sent.path,
        method: sent.method ?? 'GET',
        headers: headersOf(sent, url.host),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const get = (name: string) => {
            const value = res.headers[name];
            return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
          };
          resolve(answerOf(res.statusCode ?? 0, { get }, Buffer.concat(chunks).toString('utf8')));
        });
        res.on('error', reject);
      },
    );
    // A refused body may end the connection before all of it is written.
    req.on('error', reject);
    if (sent.chunked && sent.body !== undefined) {
      req.write(sent.body.slice(0, sent.body.length / 2));
      req.end(sent.body.slice(sent.body.length / 2));
    } else req.end(sent.body);
  });
}

const bearer = { authorization: `Bearer ${TOKEN}` };
const mcpHeaders = {
  ...bearer,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
const initialize = JSON.stringify(initializeRequest({ client: 'faces', version: '2025-06-18' }));
const statelessCall = JSON.stringify({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: {
    name: 'echo',
    arguments: { text: 'both faces' },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'faces', version: '1.0.0' },
    },
  },
});

const cases: [string, Sent][] = [
  ['the readiness probe', { path: '/readyz' }],
  ['the OAuth metadata', { path: '/.well-known/oauth-protected-resource' }],
  ['the OAuth metadata of /mcp', { path: '/.well-known/oauth-protected-resource/mcp' }],
  [
    'the OAuth metadata, POSTed',
    { method: 'POST', path: '/.well-known/oauth-protected-resource', body: '{}' },
  ],
  ['/healthz with the token', { path: '/healthz', headers: bearer }],
  ['/healthz without a token', { path: '/healthz' }],
  ['the status page', { path: '/', headers: bearer }],
  ['an unknown path', { path: '/nowhere', headers: bearer }],
  ['an unknown profile', { method: 'POST', path: '/mcp/nobody', headers: mcpHeaders, body: initialize }],
  ['a 2025 initialize', { method: 'POST', path: '/mcp', headers: mcpHeaders, body: initialize }],
  [
    'a 2026-07-28 tools/call',
    {
      method: 'POST',
      path: '/mcp',
      headers: {
        ...mcpHeaders,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'echo',
      },
      body: statelessCall,
    },
  ],
  [
    'a body declared over the cap',
    { method: 'POST', path: '/mcp', headers: mcpHeaders, body: 'x'.repeat(MAX_BODY * 4) },
  ],
  [
    'a body over the cap, its length not declared',
    { method: 'POST', path: '/mcp', headers: mcpHeaders, body: 'x'.repeat(MAX_BODY * 4), chunked: true },
  ],
  ['a body that is not JSON', { method: 'POST', path: '/mcp', headers: mcpHeaders, body: '{not json' }],
  [
    '/mcp without a token',
    { method: 'POST', path: '/mcp', headers: { ...mcpHeaders, authorization: '' }, body: initialize },
  ],
  [
    'a foreign Origin',
    {
      method: 'POST',
      path: '/mcp',
      headers: { ...mcpHeaders, origin: 'http://evil.example' },
      body: initialize,
    },
  ],
  [
    'a foreign Host',
    { method: 'POST', path: '/mcp', headers: { ...mcpHeaders, host: 'evil.example' }, body: initialize },
  ],
  [
    'the SSE transport with no session',
    { method: 'POST', path: '/messages?sessionId=none', headers: mcpHeaders, body: initialize },
  ],
];

describe('the gateway’s two HTTP faces', () => {
  it.each(cases)('answer %s alike', async (_name, sent) => {
    const [web, node] = [await throughFetch(sent), await throughNode(sent)];
    expect(node).toEqual(web);
  });

  it('answer what each request asks, not one answer for all (the control)', async () => {
    const answers = await Promise.all(cases.map(([, sent]) => throughNode(sent)));
    const byName = Object.fromEntries(cases.map(([name], index) => [name, answers[index] as Answer]));
    expect(byName['the readiness probe']?.status).toBe(200);
    expect(byName['the OAuth metadata']?.body).toMatchObject({
      authorization_servers: ['http://127.0.0.1:9/'],
    });
    expect(byName['/healthz with the token']?.headers[REACH_HEADER]).toBe(reach);
    expect(byName['/healthz without a token']).toMatchObject({
      status: 401,
      headers: { [REACH_HEADER]: null },
    });
    expect(byName['the status page']).toMatchObject({
      status: 200,
      body: expect.stringContaining('<code>/mcp</code>'),
    });
    expect(byName['an unknown path']?.status).toBe(404);
    expect(byName['a 2025 initialize']?.status).toBe(200);
    expect(byName['a 2026-07-28 tools/call']?.body).toMatchObject({
      result: { content: [{ type: 'text', text: 'both faces' }] },
    });
    expect(byName['a body declared over the cap']?.status).toBe(413);
    expect(byName['a body over the cap, its length not declared']).toMatchObject({
      status: 413,
      body: { error: { message: expect.stringContaining(`${MAX_BODY} bytes`) } },
    });
    expect(byName['a body that is not JSON']?.status).toBe(400);
    expect(byName['a foreign Origin']?.status).toBe(403);
    expect(byName['a foreign Host']?.status).toBe(403);
  });
});
