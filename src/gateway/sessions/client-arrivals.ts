import { isPlainObject } from '../../json/is-plain-object.js';

/** Distinct clients remembered, so a long-running gateway's memory of them stays bounded. */
const MAX_REMEMBERED = 256;

/**
 * One log line per client that arrives, with its name, version and era (the log says
 * what is worth knowing, never a line per request). A 2025-era client arrives with each session
 * it initializes; a 2026-07-28 client, which has no session, with the first request that names a
 * client (`_meta` `io.modelcontextprotocol/clientInfo`) not seen before.
 */
export class ClientArrivals {
  readonly #log: (line: string) => void;
  readonly #seen = new Set<string>();

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** A 2025-era session was initialized by `initialize` (its parsed body). */
  session(initialize: unknown): void {
    this.#log(`client ${describe(clientInfoOf(initialize, 'params'))} connected (2025 session)`);
  }

  /** A 2026-07-28 request (its parsed body) arrived. */
  request(body: unknown): void {
    const info = clientInfoOf(body, 'meta');
    if (info === undefined) return;
    const key = describe(info);
    if (this.#seen.has(key)) return;
    if (this.#seen.size >= MAX_REMEMBERED) this.#seen.clear();
    this.#seen.add(key);
    this.#log(`client ${key} connected (2026-07-28)`);
  }
}

function clientInfoOf(body: unknown, where: 'params' | 'meta'): Record<string, unknown> | undefined {
  if (!isPlainObject(body) || !isPlainObject(body.params)) return undefined;
  const info =
    where === 'params'
      ? body.params.clientInfo
      : isPlainObject(body.params._meta)
        ? body.params._meta['io.modelcontextprotocol/clientInfo']
        : undefined;
  return isPlainObject(info) ? info : undefined;
}

/** `name version`, each cut to 64 printable characters: a client names itself, so trust neither. */
function describe(info: Record<string, unknown> | undefined): string {
  const part = (value: unknown) =>
    typeof value === 'string' ? value.replace(/[^\x20-\x7e]/g, '?').slice(0, 64) : '?';
  return info === undefined ? '(unnamed)' : `${part(info.name)} ${part(info.version)}`;
}
