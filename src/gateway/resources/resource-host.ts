import type { CallHost } from '../calls/call-host.js';
import type { DownstreamSession } from '../sessions/downstream-session.js';
import type { SessionHost } from '../sessions/session-host.js';
import type { ResourceIndex } from './resource-index.js';
import type { ResourceTarget } from './resource-routing.js';
import type { SubscriptionState } from './upstream-subscriptions.js';

/**
 * What resources, prompts and subscriptions need of the state every session of one gateway
 * shares (the gateway's core implements it): a read or a prompt is a call, a subscription is
 * held per session. Declared here, by the folder that needs it, so that resources never import
 * the top of the gateway.
 */
export interface ResourceHost extends CallHost, SessionHost {
  /** Which upstream server offers which resource URI (reads, subscriptions, completions route by it). */
  readonly resources: ResourceIndex;
  /** Writes `line` to the gateway's log. */
  log(line: string): void;
  /** Subscribes `session` to `target`, which it named `named`: updates reach it under that name. */
  subscribe(session: DownstreamSession, named: string, target: ResourceTarget): Promise<SubscriptionState>;
  /** Ends `session`'s subscription `named`; `false` when it holds no such subscription. */
  unsubscribe(session: DownstreamSession, named: string): Promise<boolean>;
}
