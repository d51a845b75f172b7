import { lookup } from 'node:dns/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressPermitted, isPublicAddress } from '../../src/boxes/egress-allowlist.js';
import { EgressProxy } from '../../src/boxes/egress-proxy.js';
import { parseAllowEntry } from '../../src/config/allow-entry.js';
import { sandboxSchema } from '../../src/config/config-schema.js';

describe('the egress allowlist', () => {
  it('parses host:port, wildcard, IPv4 and bracketed IPv6 entries and refuses the rest', () => {
    expect(parseAllowEntry('API.example.com:443')).toEqual({
      host: 'api.example.com',
      port: 443,
      wildcard: false,
    });
    expect(parseAllowEntry('*.example.com:443')).toEqual({ host: 'example.com', port: 443, wildcard: true });
    expect(parseAllowEntry('10.0.0.5:5432')).toEqual({ host: '10.0.0.5', port: 5432, wildcard: false });
    expect(parseAllowEntry('[::1]:8080')).toEqual({ host: '::1', port: 8080, wildcard: false });
    for (const bad of [
      'example.com',
      'example.com:0',
      'example.com:70000',
      'http://example.com:80',
      '*:443',
      'a b:1',
    ])
      expect(parseAllowEntry(bad), bad).toBeUndefined();
    const parsed = sandboxSchema().safeParse({ network: { allow: ['example.com'] } });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain('must be host:port');
    expect(sandboxSchema().safeParse({ network: { allow: ['example.com:443'] } }).success).toBe(true);
    expect(sandboxSchema().safeParse({ network: 'all' }).success).toBe(true);
    expect(sandboxSchema().safeParse({ network: 'some' }).success).toBe(false);
  });

  it('tells public addresses from loopback, private, link-local and metadata ones', () => {
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '8.8.8.8'])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '127.9.9.9',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      'not an address',
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it('lets a non-public address through only when the entry names it', () => {
    const named = (entry: string) => parseAllowEntry(entry)!;
    expect(addressPermitted(named('api.example.com:443'), '93.184.216.34')).toBe(true);
    // DNS rebinding: a public name that resolves to this machine or a metadata address.
    expect(addressPermitted(named('api.example.com:443'), '127.0.0.1')).toBe(false);
    expect(addressPermitted(named('api.example.com:443'), '169.254.169.254')).toBe(false);
    expect(addressPermitted(named('localhost:8080'), '127.0.0.1')).toBe(true);
    expect(addressPermitted(named('localhost:8080'), '::1')).toBe(true);
    expect(addressPermitted(named('localhost:8080'), '10.0.0.1')).toBe(false);
    expect(addressPermitted(named('10.0.0.5:5432'), '10.0.0.5')).toBe(true);
    expect(addressPermitted(named('10.0.0.5:5432'), '10.0.0.6')).toBe(false);
  });
});

/** Sends `head` on a new connection to the unix socket `path` and resolves with all it got back. */
function exchange(path: string, head: string, then?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
      if (then !== undefined && received.includes('\r\n\r\n') && received.startsWith('HTTP/1.1 200')) {
        socket.write(then);
        then = undefined;
      }
    });
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
    socket.write(head);
  });
}

describe('the egress proxy', () => {
  let dir: string;
  let socket: string;
  let echo: Server;
  let echoPort: number;
  let web: HttpServer;
  let webPort: number;
  let proxy: EgressProxy;
  const refused: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcptools-egress-test-'));
    socket = join(dir, 'proxy.sock');
    // A TCP target that answers each line with `echo: <line>` and ends.
    echo = createServer((connection) => connection.once('data', (data) => connection.end(`echo: ${data}`)));
    await new Promise<void>((done) => echo.listen(0, '127.0.0.1', done));
    echoPort = (echo.address() as { port: number }).port;
    web = createHttpServer((req, res) =>
      res.end(
        `web ${req.method} ${req.url} host=${req.headers.host} proxy-auth=${req.headers['proxy-authorization'] ?? 'none'}`,
      ),
    );
    await new Promise<void>((done) => web.listen(0, '127.0.0.1', done));
    webPort = (web.address() as { port: number }).port;
    // A name whose DNS an attacker controls answering 127.0.0.1 (rebinding), which no resolver of
    // this machine can be made to do: `rebound.example` only; every other name goes to the host's.
    const resolve = async (host: string) =>
      host === 'rebound.example'
        ? ['127.0.0.1']
        : (await lookup(host, { all: true })).map((entry) => entry.address);
    proxy = new EgressProxy({
      server: 'probe',
      allow: ['localhost', 'rebound.example'].flatMap((host) => [
        parseAllowEntry(`${host}:${echoPort}`)!,
        parseAllowEntry(`${host}:${webPort}`)!,
      ]),
      onRefused: (message) => refused.push(message),
      resolve,
    });
    await proxy.listen(socket);
  });

  afterAll(async () => {
    await proxy?.close();
    await new Promise((done) => echo?.close(done));
    await new Promise((done) => web?.close(done));
    rmSync(dir, { recursive: true, force: true });
  });

  it('tunnels CONNECT to a listed host and port', async () => {
    const answer = await exchange(
      socket,
      `CONNECT localhost:${echoPort} HTTP/1.1\r\nHost: localhost:${echoPort}\r\n\r\n`,
      'hello\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('echo: hello');
  });

  it('forwards a plain HTTP request to a listed host, without the proxy credentials', async () => {
    const answer = await exchange(
      socket,
      `GET http://localhost:${webPort}/path?q=1 HTTP/1.1\r\nHost: localhost:${webPort}\r\nProxy-Authorization: Basic c2VjcmV0\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain(`web GET /path?q=1 host=localhost:${webPort} proxy-auth=none`);
  });

  it('refuses a host or port off the list with 403 and logs method, host and port only', async () => {
    refused.length = 0;
    const other = await exchange(socket, `CONNECT example.com:443 HTTP/1.1\r\n\r\n`);
    expect(other).toMatch(/^HTTP\/1\.1 403 /);
    const port = await exchange(socket, `CONNECT localhost:1 HTTP/1.1\r\n\r\n`);
    expect(port).toMatch(/^HTTP\/1\.1 403 /);
    const plain = await exchange(
      socket,
      `GET http://127.0.0.1:${webPort}/secret?token=hunter2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(plain).toMatch(/^HTTP\/1\.1 403 /);
    expect(refused).toEqual([
      'egress refused for server "probe": CONNECT example.com:443 (not on the allowlist)',
      'egress refused for server "probe": CONNECT localhost:1 (not on the allowlist)',
      `egress refused for server "probe": GET 127.0.0.1:${webPort} (not on the allowlist)`,
    ]);
    expect(refused.join('\n')).not.toContain('hunter2');
  });

  it('refuses a listed name that resolves to a loopback address (DNS rebinding)', async () => {
    refused.length = 0;
    const answer = await exchange(socket, `CONNECT rebound.example:${echoPort} HTTP/1.1\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    const plain = await exchange(
      socket,
      `GET http://rebound.example:${webPort}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(plain).toMatch(/^HTTP\/1\.1 403 /);
    expect(refused[0]).toBe(
      `egress refused for server "probe": CONNECT rebound.example:${echoPort} (resolves to a loopback, private or link-local address the entry does not name)`,
    );
  });
});
