import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { McpToolsError } from '../errors/mcp-tools-error.js';

/** The variable holding the key that seals the secret vault (hex or base64 of 32+ bytes). */
export const VAULT_KEY_ENV = 'MCPTOOLS_VAULT_KEY';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Seals and opens secret-vault values: AES-256-GCM, each bound to where it belongs (`entry/NAME`). */
export interface VaultSeal {
  seal(plain: string, where: string): string;
  /** `undefined` for a value sealed under another key, for another place, or tampered with. */
  open(text: string, where: string): string | undefined;
}

/**
 * The seal of a vault key given as hex or base64 text of at least 32 bytes: a value is
 * `v1.<key id>.<base64 of IV, tag and ciphertext>`, its associated data the entry and name.
 */
export function vaultSeal(text: string): VaultSeal {
  const value = text.trim();
  let bytes: Buffer | undefined;
  if (/^[0-9a-fA-F]+$/.test(value) && value.length % 2 === 0) bytes = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) bytes = Buffer.from(value, 'base64');
  if (bytes === undefined || bytes.length < 32)
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      `${VAULT_KEY_ENV} must be 32+ random bytes as hex or base64 (generate one with: openssl rand -base64 32)`,
      { recoverable: false },
    );
  const key = Buffer.from(hkdfSync('sha256', bytes, 'mcptools-vault', 'secrets', 32));
  const keyId = Buffer.from(hkdfSync('sha256', bytes, 'mcptools-vault', 'key-id', 4)).toString('hex');
  return {
    seal(plain, where) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(where));
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `v1.${keyId}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
    },
    open(sealedText, where) {
      const [version, id, body] = sealedText.split('.');
      if (version !== 'v1' || id !== keyId || body === undefined) return undefined;
      const raw = Buffer.from(body, 'base64');
      if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        decipher.setAAD(Buffer.from(where));
        return Buffer.concat([
          decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
