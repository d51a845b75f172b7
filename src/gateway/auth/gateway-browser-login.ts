import { createHash, randomBytes } from 'node:crypto';
import type { ClusterNode } from '../../cluster/cluster-node.js';
import type { GatewayOAuthConfig } from '../../config/gateway-auth-types.js';
import { BrowserRoutes, type BrowserRoutesOptions } from './browser-routes.js';
import { BrowserSessions, memoryNonces } from './browser-session.js';
import { FrontDoorLogin } from './front-door-login.js';

/** What the gateway hands its browser login besides the front door's configuration. */
export interface GatewayBrowserLoginParts
  extends Pick<BrowserRoutesOptions, 'publicOrigin' | 'settleFor' | 'relay' | 'pins' | 'log'> {
  /** The cluster key when clustered, else the request-state key; a random key when neither is set. */
  key: Uint8Array | undefined;
  /** The cluster this replica joins, where a nonce is used once across every replica. */
  cluster: (() => Promise<ClusterNode>) | undefined;
}

/**
 * The browser routes of `gateway.auth.login`, or `undefined` without it: a login at the front
 * door's issuer, sessions sealed with `key` (in a cluster every replica opens what another
 * sealed), and nonces used once in the whole cluster (`SET NX` in Redis) or in this process.
 */
export function gatewayBrowserLogin(
  oauth: GatewayOAuthConfig | undefined,
  parts: GatewayBrowserLoginParts,
): BrowserRoutes | undefined {
  const login = oauth?.login;
  if (oauth === undefined || login === undefined) return undefined;
  const usedNonces = memoryNonces();
  const { key, cluster, ...routes } = parts;
  return new BrowserRoutes({
    ...routes,
    login: new FrontDoorLogin({ ...oauth, login }),
    sessions: new BrowserSessions({
      key: key ?? randomBytes(32),
      sessionSeconds: login.sessionSeconds ?? 900,
      claimOnce: async (nonce, ttlMs) => {
        if (cluster === undefined) return usedNonces(nonce, ttlMs);
        const node = await cluster();
        const name = node.keys.browserNonce(createHash('sha256').update(nonce).digest('base64url'));
        return (await node.redis.command(['SET', name, '1', 'NX', 'PX', String(ttlMs)])) === 'OK';
      },
    }),
    // As long as an upstream flow waits for its person (5 minutes): a link outliving it leads nowhere.
    flowSeconds: login.flowSeconds ?? 300,
  });
}
