import type { Transport } from '@modelcontextprotocol/server';
import { wrapIncoming } from '../sessions/wrap-incoming.js';

/**
 * What a client sends before it asks for anything an upstream serves: answered at once, even
 * while the first connect round is under way (a host that gives a server 5 s to answer
 * `initialize`, as Gemini CLI does, must not wait for the slowest upstream).
 */
const AT_ONCE = new Set(['initialize', 'notifications/initialized', 'ping', 'server/discover']);

/**
 * Over HTTP these need no upstream either: a 2026-07-28 client's `subscriptions/listen` opens
 * at once (the tools of servers still connecting reach it as `list_changed`), and a log level
 * is the gateway's own. (Over stdio they keep their place in the one ordered stream.)
 */
const AT_ONCE_OVER_HTTP = new Set([...AT_ONCE, 'subscriptions/listen', 'logging/setLevel']);

/** Lists: over HTTP they wait a bounded time for the first round, then answer what is connected. */
export const LISTS: ReadonlySet<string> = new Set([
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
]);

/** How long a list waits for the first connect round over HTTP by default, in ms. */
export const DEFAULT_LIST_WAIT_MS = 5000;

function methodsOf(body: unknown): unknown[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.map((message) => (message as { method?: unknown } | null)?.method);
}

/** Whether `body` (one JSON-RPC message or a batch) holds a message that must see the upstreams' tools. */
export function needsUpstreams(body: unknown, atOnce: ReadonlySet<string> = AT_ONCE): boolean {
  return methodsOf(body).some((method) => typeof method === 'string' && !atOnce.has(method));
}

/** Whether every message of `body` that needs the upstreams is a list. */
function onlyLists(body: unknown): boolean {
  return methodsOf(body).every(
    (method) => typeof method !== 'string' || AT_ONCE_OVER_HTTP.has(method) || LISTS.has(method),
  );
}

/**
 * The gateway's wait for its first connect round (`GatewayOptions.ready`): `initialize`,
 * `ping` and `server/discover` never wait. Over HTTP ({@link UpstreamsGate.wait}) a list waits
 * up to `listWaitMs` and then answers with the servers connected so far (the others' tools
 * follow as `list_changed`), and a call or anything else waits for the round, so that a tool
 * whose server is still connecting is called, not "unknown"; either ends sooner when the
 * request's own servers are ready (`own`: the gateway knows which a call or a profile's list
 * needs, see `upstream-wait.ts`). Over stdio
 * ({@link UpstreamsGate.hold}) everything but those three waits for the round, in order. The
 * round is bounded by each server's connect timeout; a round that fails (an abort) releases
 * the waiters too, and the gateway then answers them as it stands.
 */
export interface UpstreamsGate {
  /**
   * Resolves when an HTTP request with `body` may be served (at once when it need not wait):
   * when the round is over, or `own` resolves (the request's own servers are ready), whichever
   * comes first; a list after `listWaitMs` at most.
   */
  wait(body: unknown, own?: () => Promise<void> | undefined): Promise<void> | undefined;
  /** `true` once the first connect round is over (or was given up). */
  roundOver(): boolean;
  /** Lets every waiting request through now (the gateway is closing: they get its refusal). */
  release(): void;
  /** Makes `transport` deliver, in order, each message that must wait once the round is over. */
  hold(transport: Transport): void;
}

/** A gate over `ready` (undefined: nothing waits, the servers connected before the gateway began). */
export function upstreamsGate(
  ready: Promise<unknown> | undefined,
  listWaitMs: number = DEFAULT_LIST_WAIT_MS,
): UpstreamsGate {
  let open = ready === undefined;
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const settled = Promise.race([ready ?? Promise.resolve(), released]).then(
    () => {
      open = true;
    },
    () => {
      open = true;
    },
  );
  /** `until` (the round, or the request's own servers), or `listWaitMs` if that comes first. */
  const boundedWait = (until: Promise<void>) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, listWaitMs);
      timer.unref();
      void until.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  return {
    release,
    roundOver: () => open,
    wait: (body, own) => {
      if (open || !needsUpstreams(body, AT_ONCE_OVER_HTTP)) return undefined;
      const mine = own?.();
      const until = mine === undefined ? settled : Promise.race([settled, mine]);
      return onlyLists(body) ? boundedWait(until) : until;
    },
    hold(transport) {
      if (open) return;
      let queue: Promise<void> | undefined;
      let waiting = 0;
      // Another observer may have wrapped `onmessage` already (the listen observer): chained to.
      wrapIncoming(transport, (next) => {
        return (message, extra) => {
          // Once one message waits, the ones behind it wait too, keeping their order
          // (a cancellation never overtakes the request it cancels).
          if (open && queue === undefined) return next(message, extra);
          if (queue === undefined && !needsUpstreams(message)) return next(message, extra);
          waiting++;
          queue = (queue ?? settled)
            .then(() => next(message, extra))
            .catch(() => {})
            .finally(() => {
              if (--waiting === 0) queue = undefined;
            });
        };
      });
    },
  };
}
