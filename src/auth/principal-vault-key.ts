/**
 * The vault key of `principal`'s entry for the server at `serverUrl` (per-user OAuth through the
 * gateway). The same string keys the vault file and the cluster's Redis store, so a replica finds
 * the entry another one wrote; it is never a URL, so no shared entry is ever read by mistake.
 */
export function principalVaultKey(principal: string, serverUrl: string): string {
  return `principal:${encodeURIComponent(principal)}:${serverUrl}`;
}
