import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import { McpToolsError } from '../errors/mcp-tools-error.js';

/**
 * What a gateway's 2026-07-28 `requestState` says, once opened: a call parked on one replica
 * (`parked`: its upstream is waiting for the answers, so only that replica can continue it), or
 * an upstream's own `input_required` handed on (`relay`: nothing is held anywhere; any replica
 * with the key continues it by retrying the upstream with its state).
 */
export type RequestStatePayload =
  | { kind: 'parked'; replica: string; call: string; round: number }
  | {
      kind: 'relay';
      server: string;
      name: string;
      state?: string;
      /** A random id of the relayed round: its retries are told apart from a replay of it. */
      round?: string;
      /**
       * What the downstream call asked for (its tool or prompt name, or its resource URI) and a
       * digest of its arguments: only a retry asking for the same continues the call.
       */
      target?: string;
      digest?: string;
    }
  | TaskIdPayload
  | ScriptTaskIdPayload;

/**
 * A task id the gateway hands out for a `run_script` it runs as a task itself: the replica
 * running the script and the task's id there (a request for it on another replica is forwarded
 * to that one).
 */
export interface ScriptTaskIdPayload {
  kind: 'script';
  replica: string;
  task: string;
}

/**
 * A task id the gateway hands out for an upstream's task (tasks extension, SEP-2663): the
 * upstream and its own task id, so `tasks/get|update|cancel` route back on any replica.
 */
export interface TaskIdPayload {
  kind: 'task';
  server: string;
  task: string;
}

/**
 * What a sealed state is bound to: the retry must name the same method, from the same
 * principal and the same OAuth client (`client`: the token's `client_id` or `azp`; absent for
 * a static token or stdio). Not the token itself: tokens are refreshed mid-call.
 */
export interface RequestStateBinding {
  method: string;
  principal: string;
  client?: string | undefined;
}

/** The wire form's version tag: `mts1.<key id>.<base64url(iv ‖ ciphertext ‖ tag)>`. */
const VERSION = 'mts1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The shortest key accepted, as the SDK's own `createRequestStateCodec` (256 bits). */
export const MIN_REQUEST_STATE_KEY_BYTES = 32;

/** The compact plaintext: kind, fields, expiry (ms since the epoch). */
type Sealed =
  | { k: 'p'; r: string; c: string; n: number; e: number }
  | { k: 'r'; s: string; t: string; u?: string; i?: string; g?: string; d?: string; e: number }
  | { k: 't'; s: string; t: string; e: number }
  | { k: 's'; r: string; t: string; e: number };

function toSealed(payload: RequestStatePayload, expires: number): Sealed {
  if (payload.kind === 'task') return { k: 't', s: payload.server, t: payload.task, e: expires };
  if (payload.kind === 'script') return { k: 's', r: payload.replica, t: payload.task, e: expires };
  if (payload.kind === 'parked')
    return { k: 'p', r: payload.replica, c: payload.call, n: payload.round, e: expires };
  return {
    k: 'r',
    s: payload.server,
    t: payload.name,
    ...(payload.state === undefined ? {} : { u: payload.state }),
    ...(payload.round === undefined ? {} : { i: payload.round }),
    ...(payload.target === undefined ? {} : { g: payload.target }),
    ...(payload.digest === undefined ? {} : { d: payload.digest }),
    e: expires,
  };
}

function fromSealed(value: unknown): RequestStatePayload | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const sealed = value as Record<string, unknown>;
  if (
    sealed.k === 'p' &&
    typeof sealed.r === 'string' &&
    typeof sealed.c === 'string' &&
    typeof sealed.n === 'number'
  )
    return { kind: 'parked', replica: sealed.r, call: sealed.c, round: sealed.n };
  if (
    sealed.k === 'r' &&
    typeof sealed.s === 'string' &&
    typeof sealed.t === 'string' &&
    (sealed.u === undefined || typeof sealed.u === 'string') &&
    (sealed.i === undefined || typeof sealed.i === 'string') &&
    (sealed.g === undefined || typeof sealed.g === 'string') &&
    (sealed.d === undefined || typeof sealed.d === 'string')
  )
    return {
      kind: 'relay',
      server: sealed.s,
      name: sealed.t,
      ...(sealed.u === undefined ? {} : { state: sealed.u }),
      ...(sealed.i === undefined ? {} : { round: sealed.i }),
      ...(sealed.g === undefined ? {} : { target: sealed.g }),
      ...(sealed.d === undefined ? {} : { digest: sealed.d }),
    };
  if (sealed.k === 't' && typeof sealed.s === 'string' && typeof sealed.t === 'string')
    return { kind: 'task', server: sealed.s, task: sealed.t };
  if (sealed.k === 's' && typeof sealed.r === 'string' && typeof sealed.t === 'string')
    return { kind: 'script', replica: sealed.r, task: sealed.t };
  return undefined;
}

/** The HMAC-SHA256 of `label` under `key`: a subkey or an id, made once per key, never per request. */
const labelled = (key: Uint8Array, label: string) => createHmac('sha256', key).update(label).digest();

/**
 * Seals and opens the gateway's 2026-07-28 `requestState` with AES-256-GCM: the client can
 * neither read it (it may carry an upstream's own state) nor change it, and it is bound to the
 * method, the principal and the OAuth client of the call (in the additional data, never in
 * clear) and expires.
 * Any process holding the same key opens it, so a retry may land on any replica. The cipher key
 * and the key id are derived from the configured key once, at construction (a directly keyed
 * AEAD: no key derivation per request); without a key, a random one per process.
 */
export class RequestStateSeal {
  /** Names the key a state was sealed with (so a state of another key is refused at once). */
  readonly keyId: string;
  readonly #key: KeyObject;
  readonly #ttlMs: number;
  readonly #prefix: string;

  constructor(options: { key?: Uint8Array; ttlMs: number }) {
    const key = options.key ?? randomBytes(32);
    if (key.byteLength < MIN_REQUEST_STATE_KEY_BYTES)
      throw new McpToolsError(
        'INVALID_ARGUMENTS',
        `the requestState key must be at least ${MIN_REQUEST_STATE_KEY_BYTES} bytes (got ${key.byteLength})`,
        { recoverable: false },
      );
    this.#key = createSecretKey(labelled(key, 'mcptools requestState aes-256-gcm v1'));
    this.keyId = labelled(key, 'mcptools requestState key id v1').subarray(0, 6).toString('base64url');
    this.#ttlMs = options.ttlMs;
    this.#prefix = `${VERSION}.${this.keyId}.`;
  }

  #additionalData(binding: RequestStateBinding): Buffer {
    // Every part is length-prefixed, so no principal and client pair reads as another.
    const parts = [binding.method, binding.principal, binding.client ?? ''];
    return Buffer.from(`${this.#prefix}${parts.map((part) => `\0${part.length}:${part}`).join('')}`);
  }

  /** The wire string for `payload`, bound to `binding`, valid for `ttlMs` (the seal's time to live by default). */
  seal(payload: RequestStatePayload, binding: RequestStateBinding, ttlMs = this.#ttlMs): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(this.#additionalData(binding));
    const plain = JSON.stringify(toSealed(payload, Date.now() + ttlMs));
    const sealed = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return this.#prefix + sealed.toString('base64url');
  }

  /**
   * The payload of `state` when it was sealed with this key for `binding` and has not expired;
   * `undefined` for anything else (malformed, another key, tampered, another method, principal
   * or client, expired), with no reason: a refusal tells the client nothing.
   */
  open(state: string, binding: RequestStateBinding): RequestStatePayload | undefined {
    if (!state.startsWith(this.#prefix)) return undefined;
    const bytes = Buffer.from(state.slice(this.#prefix.length), 'base64url');
    if (bytes.byteLength < IV_BYTES + TAG_BYTES + 2) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, IV_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(this.#additionalData(binding));
      decipher.setAuthTag(bytes.subarray(bytes.byteLength - TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES, bytes.byteLength - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
      const sealed = JSON.parse(plain) as { e?: unknown };
      if (typeof sealed.e !== 'number' || sealed.e <= Date.now()) return undefined;
      return fromSealed(sealed);
    } catch {
      return undefined;
    }
  }
}
