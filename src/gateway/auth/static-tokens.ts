import { createHash, timingSafeEqual } from 'node:crypto';
import type { GatewayTokenConfig } from '../../config/gateway-auth-types.js';
import type { Caller } from '../../tool/call-context.js';

/** A configured token: its digest (never the token) and who presents it. */
interface TokenEntry {
  digest: Buffer;
  who: Caller;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The token pair (`token`, `ownerToken`) as named tokens: `access` and `owner`. */
export function pairTokens(
  token: string | undefined,
  ownerToken: string | undefined,
): Record<string, GatewayTokenConfig> {
  const tokens: Record<string, GatewayTokenConfig> = {};
  if (ownerToken !== undefined) tokens.owner = { token: ownerToken, owner: true };
  // A single-user gateway's one token is the owner's.
  if (token !== undefined) tokens.access = { token, owner: ownerToken === undefined };
  return tokens;
}

/** The principal id of a token of the pair: derived from its digest, as before named tokens existed. */
function digestPrincipal(value: string): string {
  return `token:${digest(value).toString('hex').slice(0, 16)}`;
}

/**
 * Several named static bearer tokens, each mapped to a principal, an owner flag, scopes, claims
 * and optionally one profile. {@link match} compares the presented token with every one in
 * constant time (digests of equal length), so timing tells nothing about which one matched.
 */
export class StaticTokens {
  readonly #entries: TokenEntry[];

  /** One set holding the tokens of both. */
  static merge(first: StaticTokens, second: StaticTokens): StaticTokens {
    const merged = new StaticTokens({});
    merged.#entries.push(...first.#entries, ...second.#entries);
    return merged;
  }

  constructor(tokens: Record<string, GatewayTokenConfig>, options: { digestPrincipals?: boolean } = {}) {
    this.#entries = Object.entries(tokens).map(([name, config]) => ({
      digest: digest(config.token),
      who: Object.freeze({
        principal:
          config.principal ?? (options.digestPrincipals ? digestPrincipal(config.token) : `token:${name}`),
        owner: config.owner === true,
        via: 'token' as const,
        scopes: Object.freeze([...(config.scopes ?? [])]),
        claims: Object.freeze({ ...(config.claims ?? {}) }),
        ...(config.profile === undefined ? {} : { profile: config.profile }),
      }),
    }));
  }

  /** How many tokens are configured. */
  get size(): number {
    return this.#entries.length;
  }

  /** Who presents `presented`, or `undefined` when it is none of the tokens. */
  match(presented: string): Caller | undefined {
    const presentedDigest = digest(presented);
    let found: Caller | undefined;
    // Every entry is compared, whichever matches first.
    for (const entry of this.#entries)
      if (timingSafeEqual(presentedDigest, entry.digest) && found === undefined) found = entry.who;
    return found;
  }
}
