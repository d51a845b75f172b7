import { hkdfSync } from 'node:crypto';
import { McpToolsError } from '../errors/mcp-tools-error.js';

/** The fewest bytes a cluster key may have (256 bits). */
export const MIN_CLUSTER_KEY_BYTES = 32;

/** The keys one cluster key yields, each for one purpose (derived once, at start: no per-request KDF). */
export interface ClusterKeys {
  /** Signs requests one replica forwards to another (HMAC-SHA-256). */
  readonly forward: Buffer;
  /** Encrypts what the cluster stores in Redis for later (tokens). */
  readonly storage: Buffer;
  /** Seals a session's records and events in Redis (AES-256-GCM, a `ClusterSeal`). */
  readonly records: Buffer;
  /** Hashes the principals and session ids that name Redis keys (HMAC-SHA-256). */
  readonly names: Buffer;
  /** A short public id of {@link records}: a sealed value names the key it was sealed with. */
  readonly keyId: string;
  /** A short public id of the key: Redis keys are namespaced by it, so two clusters never share one. */
  readonly namespace: string;
}

/**
 * Reads a cluster key given as text: hex (64+ hex digits) or base64/base64url of at least 32
 * bytes. Shorter keys and other text are refused with a clear error (the key itself never
 * appears in it). Generate one with `openssl rand -base64 32`.
 */
export function parseClusterKey(text: string): Buffer {
  const value = text.trim();
  let bytes: Buffer | undefined;
  if (/^[0-9a-fA-F]+$/.test(value) && value.length % 2 === 0) bytes = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) bytes = Buffer.from(value, 'base64');
  if (bytes === undefined)
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      'MCPTOOLS_CLUSTER_KEY must be hex or base64 (generate one with: openssl rand -base64 32)',
      { recoverable: false },
    );
  return checkClusterKey(bytes);
}

/** `key` when it has at least {@link MIN_CLUSTER_KEY_BYTES} bytes; a clear error otherwise. */
export function checkClusterKey(key: Uint8Array): Buffer {
  if (key.byteLength < MIN_CLUSTER_KEY_BYTES)
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      `the cluster key has ${key.byteLength} bytes; it needs at least ${MIN_CLUSTER_KEY_BYTES} random bytes (generate one with: openssl rand -base64 32)`,
      { recoverable: false },
    );
  return Buffer.from(key);
}

/** The per-purpose keys of a cluster key (HKDF-SHA-256). */
export function deriveClusterKeys(key: Uint8Array): ClusterKeys {
  const derive = (info: string, length = 32) =>
    Buffer.from(hkdfSync('sha256', key, 'mcptools-cluster', info, length));
  return {
    forward: derive('forward'),
    storage: derive('storage'),
    records: derive('records'),
    names: derive('names'),
    keyId: derive('key-id', 4).toString('hex'),
    namespace: derive('namespace', 6).toString('hex'),
  };
}
