import { createHash, randomBytes } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/client';

/**
 * The gateway chain: how mcptools gateways that front each other recognise a loop.
 *
 * Every `mcptools serve` process is one *hop* with a token `<configKey>-<instance>`:
 * `configKey` is 8 hex characters of a hash of the configuration it serves (the file's real
 * path and the profile, or "built-in"), `instance` 12 random hex characters made at start.
 * What a gateway spawns gets the environment variable {@link CHAIN_ENV} and what it sends
 * upstream over HTTP the header {@link CHAIN_HEADER} (and every `initialize` the capability
 * {@link CHAIN_CAPABILITY}): the hops it came through (its inherited chain) followed by its own. Its HTTP answers carry {@link REACH_HEADER}: its own token and
 * every token it learned from its own upstreams' answers (the gateways reachable behind it).
 *
 * A loop is refused at three places:
 * - **HTTP, incoming**: a request whose chain names this instance, or a gateway this one
 *   reaches upstream, would come back to where it started: 508 Loop Detected, no session.
 * - **stdio, at start**: a `serve` whose inherited chain already holds its own `configKey`
 *   would serve a configuration that is already being served above it, and start the same
 *   children again (A → B → A' → B' …, each process new, so only the configuration can tell):
 *   it exits at once with {@link LOOP_MARKER} on stderr.
 * - **upstream, outgoing**: the connection that got one of those refusals is `skipped`, never
 *   retried ({@link gatewayLoopReason}).
 * Chains longer than {@link MAX_CHAIN_HOPS} are refused the same way: a backstop for loops
 * whose configuration differs at every hop.
 *
 * Two different gateways chained on purpose (A fronts B) never see their own token or key
 * come back, so they work. The chain is activated only by a gateway ({@link activateGatewayChain});
 * a process that is no gateway still passes the chain it inherited on to its children.
 */
export const CHAIN_ENV = 'MCPTOOLS_GATEWAY_CHAIN';
/** The request header that carries the chain upstream over HTTP. */
export const CHAIN_HEADER = 'mcptools-gateway-chain';
/**
 * The experimental client capability that carries the chain inside `initialize` itself, so
 * that it survives a bridge that forwards messages but not headers (`mcp-remote`).
 */
export const CHAIN_CAPABILITY = 'mcptools/gatewayChain';
/** The response header in which a gateway says which gateways are reachable through it. */
export const REACH_HEADER = 'mcptools-gateway-reach';
/** In every loop refusal's message: how the refused side recognises one. */
export const LOOP_MARKER = 'mcptools gateway loop';
/** Chains are cut off beyond this many hops. */
export const MAX_CHAIN_HOPS = 16;
/** At most this many learned tokens are kept and announced. */
const MAX_LEARNED = 64;
const TOKEN = /^[0-9a-f]{8}-[0-9a-f]{12}$/;

/** This process's place in the chain. */
interface ChainState {
  /** The hops this process was started through (from {@link CHAIN_ENV}), valid tokens only. */
  inherited: string[];
  /** This gateway's own token, once {@link activateGatewayChain} ran. */
  own: string | undefined;
  /** Tokens of the gateways reachable upstream, learned from their answers. */
  learned: Set<string>;
}

let state: ChainState | undefined;

function current(): ChainState {
  state ??= { inherited: parseChain(process.env[CHAIN_ENV]), own: undefined, learned: new Set() };
  return state;
}

/** The valid hop tokens of a chain value (`a,b,c`); anything else in it is ignored. */
export function parseChain(value: string | null | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((token) => token.trim())
    .filter((token) => TOKEN.test(token))
    .slice(0, MAX_CHAIN_HOPS + 1);
}

/** The `configKey` of a gateway serving `source` (a real path, or `undefined` for the built-in default) with `profile`. */
export function configKeyOf(source: string | undefined, profile?: string): string {
  return createHash('sha256')
    .update(`${source ?? '(built-in)'}\u0000${profile ?? ''}`)
    .digest('hex')
    .slice(0, 8);
}

/**
 * Makes this process a gateway hop serving the configuration `configKey`. Returns the loop
 * message when the inherited chain already holds this configuration (or is too long): the
 * caller refuses to start then. Idempotent for one key.
 */
export function activateGatewayChain(configKey: string): { token: string; loop?: string } {
  const chain = current();
  chain.own ??= `${configKey}-${randomBytes(6).toString('hex')}`;
  const token = chain.own;
  if (chain.inherited.some((hop) => hop.startsWith(`${configKey}-`)))
    return {
      token,
      loop: `${LOOP_MARKER}: this configuration is already served by a gateway above this one (chain ${chain.inherited.join(' → ')}); refusing to serve it again`,
    };
  if (chain.inherited.length >= MAX_CHAIN_HOPS)
    return { token, loop: `${LOOP_MARKER}: the chain of gateways is ${chain.inherited.length} hops long` };
  return { token };
}

/** The chain this process passes on (inherited hops, then its own), or `undefined` when empty. */
export function outgoingChain(): string | undefined {
  const chain = current();
  const hops = chain.own === undefined ? chain.inherited : [...chain.inherited, chain.own];
  return hops.length > 0 ? hops.join(',') : undefined;
}

/** The environment entry a spawned server gets (none when there is no chain). */
export function chainEnvironment(): Record<string, string> {
  const value = outgoingChain();
  return value === undefined ? {} : { [CHAIN_ENV]: value };
}

/** The headers an upstream HTTP request carries (none when there is no chain). */
export function chainHeaders(): Record<string, string> {
  const value = outgoingChain();
  return value === undefined ? {} : { [CHAIN_HEADER]: value };
}

/** The experimental capabilities an upstream `initialize` declares (none when there is no chain). */
export function chainCapabilities(): Record<string, { hops: string }> | undefined {
  const value = outgoingChain();
  return value === undefined ? undefined : { [CHAIN_CAPABILITY]: { hops: value } };
}

/** Client capabilities as a request carries them: `initialize` params (2025), or `_meta` (2026-07-28). */
type CapabilityCarrier = {
  params?: {
    capabilities?: { experimental?: Record<string, { hops?: unknown }> };
    _meta?: Record<string, { experimental?: Record<string, { hops?: unknown }> } | undefined>;
  };
};

/**
 * {@link incomingLoop} for the chain a JSON-RPC body's client capabilities carry (see
 * {@link CHAIN_CAPABILITY}): an `initialize`'s, or any 2026-07-28 request's `_meta`; a batch
 * is looked through message by message.
 */
export function requestLoop(body: unknown): string | undefined {
  for (const message of Array.isArray(body) ? body : [body]) {
    const params = (message as CapabilityCarrier | null | undefined)?.params;
    const capabilities = params?.capabilities ?? params?._meta?.[CLIENT_CAPABILITIES_META_KEY];
    const hops = capabilities?.experimental?.[CHAIN_CAPABILITY]?.hops;
    const loop = typeof hops === 'string' ? incomingLoop(hops) : undefined;
    if (loop !== undefined) return loop;
  }
  return undefined;
}

/** Learns the gateways reachable behind an upstream from its answer's {@link REACH_HEADER}. */
export function learnReach(value: string | null): void {
  if (!value) return;
  const chain = current();
  for (const token of parseChain(value)) {
    if (chain.learned.size >= MAX_LEARNED) return;
    if (token !== chain.own) chain.learned.add(token);
  }
}

/** The {@link REACH_HEADER} value of this gateway's answers (`undefined` when it is no gateway). */
export function reachHeaderValue(): string | undefined {
  const chain = current();
  if (chain.own === undefined) return undefined;
  return [chain.own, ...chain.learned].slice(0, MAX_LEARNED).join(',');
}

/**
 * Why a request with `header` (its {@link CHAIN_HEADER}) must be refused as a loop, or
 * `undefined`. Only a gateway (activated) refuses.
 */
export function incomingLoop(header: string | null): string | undefined {
  const chain = current();
  if (chain.own === undefined || !header) return undefined;
  const hops = parseChain(header);
  if (hops.includes(chain.own))
    return `${LOOP_MARKER}: this request already passed through this gateway (chain ${hops.join(' → ')})`;
  const behind = hops.find((hop) => chain.learned.has(hop));
  if (behind !== undefined)
    return `${LOOP_MARKER}: the calling gateway ${behind} is also reachable upstream of this one; refusing the cycle`;
  if (hops.length >= MAX_CHAIN_HOPS)
    return `${LOOP_MARKER}: the chain of gateways is ${hops.length} hops long`;
  return undefined;
}

/**
 * The loop refusal `error` carries (in it, a cause, or its message), as one clean sentence
 * starting with {@link LOOP_MARKER}; `undefined` when it is no loop refusal.
 */
export function gatewayLoopReason(error: unknown): string | undefined {
  for (let value = error, depth = 0; value !== undefined && value !== null && depth < 6; depth++) {
    const message = value instanceof Error ? value.message : typeof value === 'string' ? value : '';
    const at = message.indexOf(LOOP_MARKER);
    // The refusal arrives inside the upstream's JSON body: cut it at the string's end.
    if (at >= 0) return message.slice(at).split(/["\n]/)[0]!.trim();
    if (/\bHTTP 508\b/.test(message)) return `${LOOP_MARKER}: the upstream answered 508 Loop Detected`;
    value = value instanceof Error ? value.cause : undefined;
  }
  return undefined;
}

/** Forgets this process's chain state (tests that activate a chain in-process). */
export function resetGatewayChain(): void {
  state = undefined;
}
