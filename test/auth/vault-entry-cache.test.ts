import { describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import { VaultOAuthProvider } from '../../src/auth/vault-oauth-provider.js';

/** A memory store that counts its reads. */
class CountingStore extends MemoryTokenStore {
  reads = 0;
  override async get(serverUrl: string) {
    this.reads++;
    return super.get(serverUrl);
  }
}

describe('VaultOAuthProvider entry cache (no vault read per HTTP request)', () => {
  const url = 'http://127.0.0.1:1/mcp';

  it('remembers that a server has no entry: one read, however many requests', async () => {
    const store = new CountingStore();
    const provider = new VaultOAuthProvider(url, store, undefined);
    for (let request = 0; request < 5; request++) expect(await provider.tokens()).toBeUndefined();
    expect(store.reads).toBe(1);
  });

  it('reads afresh when asked, and under the lock in a transaction, seeing another writer', async () => {
    const store = new CountingStore();
    const provider = new VaultOAuthProvider(url, store, undefined);
    expect(await provider.tokens()).toBeUndefined();
    // Another process (here: another provider over the same store) signs in.
    const tokens = { access_token: 'a1', token_type: 'Bearer' };
    await new VaultOAuthProvider(url, store, undefined).saveTokens(tokens);
    expect(await provider.tokens()).toBeUndefined();
    expect((await provider.entry(true))?.tokens).toEqual(tokens);
    await new VaultOAuthProvider(url, store, undefined).saveTokens({ ...tokens, access_token: 'a2' });
    const seen = await provider.transaction(async (entry) => entry?.tokens?.access_token);
    expect(seen).toBe('a2');
    expect((await provider.tokens())?.access_token).toBe('a2');
  });
});
