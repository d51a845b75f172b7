import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The version mark of a sealed value: `v1.<key id>.<base64 of IV, tag and ciphertext>`. */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals what a cluster keeps of a session in Redis (its events, its record's fields) with
 * AES-256-GCM under a key derived from the cluster key. Whoever can read or write that Redis
 * without the key learns nothing of a sealed value and cannot make one that opens: the
 * associated data names where the value belongs (the Redis key, and the event id or field), so
 * a value copied to another session, event or field does not open either. A value names the id
 * of its key, so one sealed under another key (another cluster sharing the Redis, a rotated key)
 * is told apart from a forgery without trying it.
 */
export class ClusterSeal {
  readonly #key: Buffer;
  readonly #keyId: string;

  constructor(key: Buffer, keyId: string) {
    this.#key = key;
    this.#keyId = keyId;
  }

  /** `plain` sealed, bound to `where` (the associated data). */
  seal(plain: string, where: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(where));
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}.${this.#keyId}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  /**
   * What `text` holds, if it was sealed under this key for `where`; `undefined` otherwise (clear
   * text, another key, another place, tampered with). Never throws.
   */
  open(text: string, where: string): string | undefined {
    const first = text.indexOf('.');
    const second = text.indexOf('.', first + 1);
    if (first < 0 || second < 0 || text.slice(0, first) !== VERSION) return undefined;
    if (text.slice(first + 1, second) !== this.#keyId) return undefined;
    const bytes = Buffer.from(text.slice(second + 1), 'base64');
    if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      decipher.setAAD(Buffer.from(where));
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
