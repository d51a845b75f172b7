import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

/**
 * What the vault keeps for one server, keyed by the server's URL. Every field but `serverUrl`
 * and the timestamps is a secret: it is written only to the store and never printed.
 */
export interface VaultEntry {
  /** The MCP server URL the entry belongs to (the key). */
  serverUrl: string;
  /** The client as registered with the authorization server (dynamic registration or metadata document). */
  client?: StoredOAuthClientInformation;
  /** The last tokens the authorization server issued. */
  tokens?: StoredOAuthTokens;
  /** When the access token expires (epoch ms), computed from `expires_in` when it was saved. */
  expiresAt?: number;
  /** The scope the next authorization asks for (widened when a server asks for more: step-up). */
  requestedScope?: string;
  /** When the entry last changed (epoch ms). */
  updatedAt: number;
}

/** Computes the next entry from the current one; `undefined` deletes the entry. */
export type VaultUpdate = (
  current: VaultEntry | undefined,
) => VaultEntry | undefined | Promise<VaultEntry | undefined>;

/**
 * Where OAuth credentials live. `update` is a read-modify-write that no other writer (another
 * process included) can interleave with, so a token refresh done inside it sees the newest
 * token and never overwrites a newer one. The default is the vault file ({@link FileTokenStore}).
 */
export interface TokenStore {
  get(serverUrl: string): Promise<VaultEntry | undefined>;
  update(serverUrl: string, update: VaultUpdate): Promise<VaultEntry | undefined>;
  list(): Promise<VaultEntry[]>;
}
