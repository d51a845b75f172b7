// The cost of the gateway's sealed 2026-07-28 requestState: seal and open
// (AES-256-GCM, node:crypto, src/cluster/request-state-seal.ts) against the SDK's own
// `createRequestStateCodec` (HMAC-SHA256 over WebCrypto, signed only), mint and verify, bound to
// the same method and principal. Batches of each side interleave, their order rotating, so
// machine noise lands on every side; the figure is the time per operation of a batch.
//
//   npm run build && node bench/run.mjs request-state [--batches=N] [--size=N]
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec } from '@modelcontextprotocol/server';
import { RequestStateSeal } from '../dist/cluster/request-state-seal.js';
import { format, printTable, writeResult } from './lib/report.mjs';
import { ratio, summarize } from './lib/stats.mjs';

const flag = (name, fallback) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const BATCHES = flag('batches', 40);
const SIZE = flag('size', 500);

const key = randomBytes(32);
const binding = { method: 'tools/call', principal: 'token:0123456789abcdef' };
const parked = {
  kind: 'parked',
  replica: 'replica-a',
  call: 'c9f1b6a2-5d1e-4c3a-9a57-0e2f1f7f4b11',
  round: 1,
};
const relay = {
  kind: 'relay',
  server: 'ask',
  name: 'ask_user',
  state: 'an upstream state of some forty bytes..',
};

const seal = new RequestStateSeal({ key, ttlMs: 300_000 });
const codec = createRequestStateCodec({
  key,
  ttlSeconds: 300,
  bind: (context) => `${context.mcpReq.method}\0${context.http?.authInfo?.clientId ?? ''}`,
});
const context = { mcpReq: { method: binding.method }, http: { authInfo: { clientId: binding.principal } } };

const sealedParked = seal.seal(parked, binding);
const sealedRelay = seal.seal(relay, binding);
const minted = await codec.mint(parked, context);
if (seal.open(sealedParked, binding)?.call !== parked.call) throw new Error('the seal does not open');
if ((await codec.verify(minted, context)).call !== parked.call) throw new Error('the codec does not verify');

const sides = {
  'mcptools seal (parked)': () => {
    for (let index = 0; index < SIZE; index++) seal.seal(parked, binding);
  },
  'mcptools open (parked)': () => {
    for (let index = 0; index < SIZE; index++) seal.open(sealedParked, binding);
  },
  'mcptools seal (relay)': () => {
    for (let index = 0; index < SIZE; index++) seal.seal(relay, binding);
  },
  'mcptools open (relay)': () => {
    for (let index = 0; index < SIZE; index++) seal.open(sealedRelay, binding);
  },
  'SDK codec mint': async () => {
    for (let index = 0; index < SIZE; index++) await codec.mint(parked, context);
  },
  'SDK codec verify': async () => {
    for (let index = 0; index < SIZE; index++) await codec.verify(minted, context);
  },
};
const names = Object.keys(sides);
const samples = Object.fromEntries(names.map((name) => [name, []]));
// Warm-up: one batch of each, not counted.
for (const name of names) await sides[name]();
for (let batch = 0; batch < BATCHES; batch++) {
  for (let offset = 0; offset < names.length; offset++) {
    const name = names[(batch + offset) % names.length];
    const started = performance.now();
    await sides[name]();
    samples[name].push((performance.now() - started) / SIZE);
  }
}
const stats = Object.fromEntries(names.map((name) => [name, summarize(samples[name])]));
const reference = { seal: stats['SDK codec mint'].p50, open: stats['SDK codec verify'].p50 };
printTable(
  `requestState, time per operation (${BATCHES} batches of ${SIZE}; wire length: parked ${sealedParked.length}, relay ${sealedRelay.length}, SDK codec ${minted.length} characters)`,
  ['side', 'p50', 'p95', 'vs SDK codec'],
  names.map((name) => [
    name,
    format.us(stats[name].p50),
    format.us(stats[name].p95),
    name.startsWith('SDK')
      ? '1.00x'
      : `${ratio(stats[name].p50, name.includes('seal') ? reference.seal : reference.open)?.toFixed(2)}x`,
  ]),
);
const file = writeResult('request-state', {
  batches: BATCHES,
  size: SIZE,
  lengths: { parked: sealedParked.length, relay: sealedRelay.length, sdkCodec: minted.length },
  stats,
});
console.log(`\nwrote ${file}`);
