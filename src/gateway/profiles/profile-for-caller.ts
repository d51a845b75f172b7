import { matchesCaller } from '../auth/caller-selector.js';
import type { RequestPrincipal } from '../auth/http-guard.js';
import type { GatewayProfile } from './gateway-profile.js';

/**
 * The profile a request to `/mcp` (`name` undefined) or `/mcp/<name>` is served, for `caller`:
 * a token bound to one profile gets that one at `/mcp` and no other; a profile with `who` only
 * serves callers who match. `undefined` (404) otherwise.
 */
export function profileFor(
  profiles: ReadonlyMap<string, GatewayProfile>,
  name: string | undefined,
  caller: RequestPrincipal,
): GatewayProfile | undefined {
  const bound = caller.profile;
  if (bound !== undefined && name !== undefined && name !== bound) return undefined;
  const profile = profiles.get(name ?? bound ?? '');
  if (profile === undefined) return undefined;
  if (profile.who !== undefined && !matchesCaller(profile.who, caller)) return undefined;
  return profile;
}
