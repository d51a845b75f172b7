import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { requestStateReplica } from '../../src/cluster/request-state-owner.js';
import { type RequestStatePayload, RequestStateSeal } from '../../src/cluster/request-state-seal.js';

const key = randomBytes(32);
const binding = { method: 'tools/call', principal: 'oauth:alice', client: 'desktop-app' };
const who = { principal: binding.principal, clientId: binding.client, owner: false };
const relay: RequestStatePayload = {
  kind: 'relay',
  server: 'ask',
  name: 'ask_user',
  state: 'upstream-secret-state',
};
const parked: RequestStatePayload = { kind: 'parked', replica: 'replica-a', call: 'call-1', round: 2 };

/** `state` with one character of its sealed part changed. */
function tampered(state: string, at: number): string {
  const index = state.length - at;
  const changed = state[index] === 'A' ? 'B' : 'A';
  return state.slice(0, index) + changed + state.slice(index + 1);
}

describe('RequestStateSeal', () => {
  it('opens what it sealed, in another instance holding the same key', () => {
    const seal = new RequestStateSeal({ key, ttlMs: 60_000 });
    const other = new RequestStateSeal({ key, ttlMs: 60_000 });
    expect(other.keyId).toBe(seal.keyId);
    expect(other.open(seal.seal(relay, binding), binding)).toEqual(relay);
    expect(other.open(seal.seal(parked, binding), binding)).toEqual(parked);
  });

  it("hides the payload, an upstream's state included, from whoever holds the wire form", () => {
    const seal = new RequestStateSeal({ key, ttlMs: 60_000 });
    const state = seal.seal(relay, binding);
    expect(state.startsWith(`mts1.${seal.keyId}.`)).toBe(true);
    const decoded = Buffer.from(state.split('.')[2] ?? '', 'base64url').toString('latin1');
    for (const secret of ['upstream-secret-state', 'ask_user', binding.principal])
      expect(`${state}\n${decoded}`).not.toContain(secret);
    // A fresh nonce each time: two seals of the same payload differ.
    expect(seal.seal(relay, binding)).not.toBe(state);
  });

  it('refuses a tampered state, wherever the change is', () => {
    const seal = new RequestStateSeal({ key, ttlMs: 60_000 });
    const state = seal.seal(relay, binding);
    for (const at of [3, 10, 30, state.length - 'mts1.'.length - seal.keyId.length - 2])
      expect(seal.open(tampered(state, at), binding)).toBeUndefined();
    expect(seal.open(state.slice(0, -4), binding)).toBeUndefined();
    expect(seal.open('not a state', binding)).toBeUndefined();
    expect(seal.open('', binding)).toBeUndefined();
  });

  it('refuses a state sealed for another principal or another method', () => {
    const seal = new RequestStateSeal({ key, ttlMs: 60_000 });
    const state = seal.seal(parked, binding);
    expect(seal.open(state, { ...binding, principal: 'token:fedcba9876543210' })).toBeUndefined();
    expect(seal.open(state, { ...binding, principal: 'anonymous' })).toBeUndefined();
    expect(seal.open(state, { ...binding, method: 'prompts/get' })).toBeUndefined();
  });

  it('refuses a state sealed for another OAuth client of the same principal (the control: its own client opens it)', () => {
    const seal = new RequestStateSeal({ key, ttlMs: 60_000 });
    const state = seal.seal(parked, binding);
    expect(seal.open(state, binding)).toEqual(parked);
    expect(seal.open(state, { ...binding, client: 'cli-tool' })).toBeUndefined();
    expect(seal.open(state, { method: binding.method, principal: binding.principal })).toBeUndefined();
    // A state sealed without a client opens only without one.
    const unbound = seal.seal(parked, { method: binding.method, principal: binding.principal });
    expect(seal.open(unbound, { method: binding.method, principal: binding.principal })).toEqual(parked);
    expect(seal.open(unbound, binding)).toBeUndefined();
    // A principal holding the separator cannot pass for another principal and client pair.
    const shifted = seal.seal(parked, { method: 'tools/call', principal: 'a\u0000b' });
    expect(seal.open(shifted, { method: 'tools/call', principal: 'a', client: 'b' })).toBeUndefined();
  });

  it('refuses a state sealed with another key', () => {
    const state = new RequestStateSeal({ key, ttlMs: 60_000 }).seal(relay, binding);
    expect(new RequestStateSeal({ ttlMs: 60_000 }).open(state, binding)).toBeUndefined();
  });

  it('refuses an expired state', async () => {
    const seal = new RequestStateSeal({ key, ttlMs: 30 });
    const state = seal.seal(relay, binding);
    expect(seal.open(state, binding)).toEqual(relay);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(seal.open(state, binding)).toBeUndefined();
  });

  it('refuses a key shorter than 32 bytes', () => {
    expect(() => new RequestStateSeal({ key: randomBytes(16), ttlMs: 1000 })).toThrow(/at least 32 bytes/);
  });
});

describe('requestStateReplica', () => {
  const seal = new RequestStateSeal({ key, ttlMs: 60_000 });
  const retry = (state: string, method = 'tools/call') => ({
    jsonrpc: '2.0',
    id: 3,
    method,
    params: { name: 'ask25__ask_user', arguments: {}, requestState: state },
  });

  it('names the replica holding a parked call', () => {
    expect(requestStateReplica(seal, retry(seal.seal(parked, binding)), who)).toBe('replica-a');
  });

  it('names none for a relayed round, a state that does not open, or a request that is no retry', () => {
    const state = seal.seal(parked, binding);
    expect(requestStateReplica(seal, retry(seal.seal(relay, binding)), who)).toBeUndefined();
    expect(
      requestStateReplica(seal, retry(state), { ...who, principal: 'token:fedcba9876543210' }),
    ).toBeUndefined();
    expect(requestStateReplica(seal, retry(state), { ...who, clientId: 'cli-tool' })).toBeUndefined();
    expect(
      requestStateReplica(seal, retry(state), { principal: who.principal, owner: false }),
    ).toBeUndefined();
    expect(requestStateReplica(seal, retry(state, 'prompts/get'), who)).toBeUndefined();
    expect(requestStateReplica(seal, retry(state, 'tools/list'), who)).toBeUndefined();
    expect(requestStateReplica(seal, retry(tampered(state, 5)), who)).toBeUndefined();
    expect(requestStateReplica(seal, [retry(state)], who)).toBeUndefined();
    expect(requestStateReplica(seal, undefined, who)).toBeUndefined();
  });
});
