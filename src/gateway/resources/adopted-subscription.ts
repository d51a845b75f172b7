import type { GatewayProfile } from '../profiles/gateway-profile.js';
import type { DownstreamSession } from '../sessions/downstream-session.js';
import { resourceScope } from './gateway-resource-handlers.js';
import type { ResourceHost } from './resource-host.js';
import { locateResource } from './resource-routing.js';
import { unwrapResourceUri } from './resource-uri.js';

/**
 * Holds the subscription `named` (as its client asked it: a server's URI, or its qualified
 * form) again for `session`, a session of `profile` adopted from another replica: routed as a
 * new subscription would be, to a server the session's caller may see. A failure is logged: the
 * adoption goes on without it.
 */
export async function adoptSubscription(
  core: ResourceHost,
  profile: GatewayProfile,
  session: DownstreamSession,
  named: string,
): Promise<void> {
  const target =
    unwrapResourceUri(named) ??
    (await locateResource(resourceScope(core, profile, session), named).catch(() => undefined));
  const failed = (why: string) => core.log(`cluster: an adopted subscription to ${named} failed: ${why}`);
  if (target === undefined) failed('no server offers it');
  else
    await core
      .subscribe(session, named, target)
      .catch((error: unknown) => failed(error instanceof Error ? error.message : String(error)));
}
