import type { Server } from '@modelcontextprotocol/server';
import type { GatewayProfile } from '../profiles/gateway-profile.js';
import type { DownstreamSession } from './downstream-session.js';

/**
 * What the sessions of one gateway need of the state every session shares (the gateway's core
 * implements it): the sessions that get notifications, and the end of a session. Declared here,
 * by the folder that needs it, so that sessions never import the top of the gateway.
 */
export interface SessionHost {
  /** Sessions that receive notifications: 2025-era HTTP sessions and stdio connections. */
  readonly sessions: Set<DownstreamSession>;
  /** A session ended (DELETE, disconnect, stdio close): its calls are cancelled, its subscriptions dropped. */
  endSession(session: DownstreamSession): void;
  /** The name each of `session`'s subscriptions was asked by (its qualified key when asked so). */
  subscriptionNames(session: DownstreamSession): string[];
}

/** Builds the SDK server that answers `session` at `profile` (the gateway's own, handed in by its wiring). */
export type SessionServerFactory = (
  profile: GatewayProfile,
  session: DownstreamSession,
) => Pick<Server, 'connect'>;
