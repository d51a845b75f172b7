// What the OAuth front door costs, all in the same process run:
//  1. the front door alone (`authenticateRequest` on a request's headers): no token configured,
//     a static token, a JWT access token already verified once (cached until `exp`) — in
//     interleaved rounds, the median of each round's per-request time;
//  2. end to end: `tools/call` of a native tool over HTTP (a 2026-07-28 SDK client, one call at a
//     time) with a static token and with a JWT, interleaved rounds, median per-round difference;
//  3. introspection: a steady stream of calls with one opaque token, and the number of
//     introspection requests the authorization server saw.
// The authorization server is a small loopback stand-in (JWKS + RFC 7662), counting requests;
// the tests run the real one (oidc-provider).
//   npm run build && node bench/run.mjs gateway-auth [--rounds=7] [--checks=20000] [--calls=400]
import { createServer } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { frontDoor } from '../dist/gateway/auth/front-door.js';
import { createGateway } from '../dist/gateway/create-gateway.js';
import { authenticateRequest } from '../dist/gateway/http-guard.js';
import { loadMcpServers } from '../dist/hub/load-mcp-servers.js';
import { ToolRegistry } from '../dist/pipeline/tool-registry.js';
import { quantile } from './lib/stats.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const found = args.find((arg) => arg.startsWith(`--${name}=`));
  return found === undefined ? fallback : Number(found.slice(name.length + 3));
};
const rounds = flag('rounds', 7);
const checks = flag('checks', 20_000);
const calls = flag('calls', 400);

// --- the stand-in authorization server: JWKS and introspection, counted -----------------------
const { privateKey, publicKey } = await generateKeyPair('ES256');
const jwk = { ...(await exportJWK(publicKey)), kid: 'bench-1', alg: 'ES256', use: 'sig' };
const counts = { jwks: 0, introspection: 0 };
const as = createServer((req, res) => {
  if (req.url === '/jwks') {
    counts.jwks++;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
    return;
  }
  if (req.url === '/introspect') {
    counts.introspection++;
    req.resume();
    req.on('end', () => {
      const now = Math.floor(Date.now() / 1000);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          active: true,
          sub: 'carol',
          client_id: 'bench',
          scope: 'mcp',
          aud: opaqueAudience,
          iss: issuer,
          exp: now + 3600,
        }),
      );
    });
    return;
  }
  res.statusCode = 404;
  res.end();
});
await new Promise((resolve) => as.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${as.address().port}`;
const audience = 'http://127.0.0.1:1/mcp';
const opaqueAudience = 'http://127.0.0.1:2/mcp';
const now = Math.floor(Date.now() / 1000);
const jwt = await new SignJWT({ sub: 'alice', client_id: 'bench', scope: 'mcp', groups: ['ops'] })
  .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'bench-1' })
  .setIssuer(issuer)
  .setAudience(audience)
  .setIssuedAt(now)
  .setExpirationTime(now + 3600)
  .sign(privateKey);
const STATIC = 'bench-static-token-0123456789';
const oauth = { type: 'oauth', issuer, audience, jwksUrl: `${issuer}/jwks` };

// --- 1. the front door alone -------------------------------------------------------------------
const config = { servers: {}, gateway: { tokens: { ci: { token: STATIC } } } };
const settingsOf = (door) => ({ ...door, allowedHostnames: ['127.0.0.1'], maxBodyBytes: 4 << 20 });
const withOAuth = settingsOf(frontDoor({ config, auth: oauth }));
const withoutOAuth = settingsOf(frontDoor({ config }));
const request = (token) =>
  new Request('http://127.0.0.1:1/mcp', {
    method: 'POST',
    headers: { host: '127.0.0.1:1', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
const cases = {
  'static token (no OAuth configured)': { settings: withoutOAuth, request: request(STATIC) },
  'static token (OAuth configured)': { settings: withOAuth, request: request(STATIC) },
  'JWT, verified before (cached)': { settings: withOAuth, request: request(jwt) },
};
const first = await authenticateRequest(cases['JWT, verified before (cached)'].request, withOAuth);
if (first instanceof Response) throw new Error(`the bench JWT was refused: ${first.status}`);
const perCheck = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let round = 0; round < rounds; round++) {
  const names = Object.keys(cases);
  for (let offset = 0; offset < names.length; offset++) {
    const name = names[(round + offset) % names.length];
    const { settings, request: sent } = cases[name];
    const started = process.hrtime.bigint();
    for (let index = 0; index < checks; index++) {
      const checked = authenticateRequest(sent, settings);
      if ((checked instanceof Promise ? await checked : checked) instanceof Response)
        throw new Error(`${name} refused`);
    }
    perCheck[name].push(Number(process.hrtime.bigint() - started) / 1000 / checks);
  }
}
console.log(`front door alone: µs per request, median of ${rounds} rounds × ${checks}`);
for (const [name, series] of Object.entries(perCheck))
  console.log(`  ${name.padEnd(40)} ${quantile(series, 0.5).toFixed(2)}`);
const staticMedian = quantile(perCheck['static token (OAuth configured)'], 0.5);
console.log(
  `  cached JWT minus static token: ${(quantile(perCheck['JWT, verified before (cached)'], 0.5) - staticMedian).toFixed(2)} µs (goal ≤ 50)`,
);

// --- 2. end to end over HTTP ---------------------------------------------------------------------
const registry = new ToolRegistry();
registry.register({
  name: 'hello',
  description: 'Says hello',
  parameters: { type: 'object', properties: {} },
  execute: async () => ({ content: [{ type: 'text', text: 'hello' }] }),
});
const hub = await loadMcpServers({ servers: {} }, registry);
const probe = createServer();
await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
const port = probe.address().port;
await new Promise((resolve) => probe.close(resolve));
const gatewayAudience = `http://127.0.0.1:${port}/mcp`;
const gateway = createGateway({
  registry,
  hub,
  config: { servers: {}, gateway: { tokens: { ci: { token: STATIC } } } },
  auth: { ...oauth, audience: gatewayAudience },
});
const { url } = await gateway.listen({ host: '127.0.0.1', port });
const gatewayJwt = await new SignJWT({ sub: 'alice', client_id: 'bench', scope: 'mcp' })
  .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'bench-1' })
  .setIssuer(issuer)
  .setAudience(gatewayAudience)
  .setIssuedAt(now)
  .setExpirationTime(now + 3600)
  .sign(privateKey);
const connect = async (token) => {
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
};
const clients = { static: await connect(STATIC), jwt: await connect(gatewayJwt) };
const perCall = { static: [], jwt: [] };
for (const client of Object.values(clients))
  for (let index = 0; index < 50; index++) await client.callTool({ name: 'hello' });
for (let round = 0; round < rounds; round++) {
  for (const side of round % 2 === 0 ? ['static', 'jwt'] : ['jwt', 'static']) {
    const started = process.hrtime.bigint();
    for (let index = 0; index < calls; index++) await clients[side].callTool({ name: 'hello' });
    perCall[side].push(Number(process.hrtime.bigint() - started) / 1000 / calls);
  }
}
const differences = perCall.jwt.map((value, index) => value - perCall.static[index]);
console.log(
  `end to end (tools/call over HTTP, one at a time): µs per call, median of ${rounds} rounds × ${calls}`,
);
console.log(
  `  static token ${quantile(perCall.static, 0.5).toFixed(1)}   JWT ${quantile(perCall.jwt, 0.5).toFixed(1)}`,
);
console.log(
  `  JWT minus static token, median of per-round differences: ${quantile(differences, 0.5).toFixed(1)} µs`,
);
for (const client of Object.values(clients)) await client.close();
await gateway.close();

// --- 3. introspection requests for a steady stream of calls ------------------------------------------
const introspecting = settingsOf(
  frontDoor({
    config: { servers: {} },
    auth: {
      type: 'oauth',
      issuer,
      audience: opaqueAudience,
      introspection: { url: `${issuer}/introspect`, clientId: 'gateway', clientSecret: 'gateway-secret' },
    },
  }),
);
const opaque = request('opaque-token-for-carol-0123456789');
const before = counts.introspection;
const steady = 1000;
for (let index = 0; index < steady; index++) {
  const checked = await authenticateRequest(opaque, introspecting);
  if (checked instanceof Response) throw new Error(`the opaque token was refused: ${checked.status}`);
}
console.log(
  `introspection: ${steady} requests with one opaque token made ${counts.introspection - before} introspection request(s)`,
);
console.log(`JWKS fetched ${counts.jwks} time(s) in the whole run`);

await hub.close();
as.closeAllConnections();
await new Promise((resolve) => as.close(resolve));
