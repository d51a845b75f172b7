import type { Transport } from '@modelcontextprotocol/server';

/**
 * What a client sends before it asks for anything an upstream serves: answered at once, even
 * while the first connect round is under way (a host that gives a server 5 s to answer
 * `initialize`, as Gemini CLI does, must not wait for the slowest upstream).
 */
const AT_ONCE = new Set(['initialize', 'notifications/initialized', 'ping', 'server/discover']);

/** Whether `body` (one JSON-RPC message or a batch) holds a message that must see the upstreams' tools. */
export function needsUpstreams(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => {
    const method = (message as { method?: unknown } | null)?.method;
    return typeof method === 'string' && !AT_ONCE.has(method);
  });
}

/**
 * The gateway's wait for its first connect round (`GatewayOptions.ready`): `initialize`,
 * `ping` and `server/discover` never wait; a list, a call or anything else sent before the
 * round is over waits for it, so a host's first `tools/list` gets every upstream's tools. The
 * round is bounded by each server's connect timeout; a round that fails (an abort) releases
 * the waiters too, and the gateway then answers them as it stands.
 */
export interface UpstreamsGate {
  /** Resolves when a request with `body` may be served (at once when it need not wait). */
  wait(body: unknown): Promise<void> | undefined;
  /** Lets every waiting request through now (the gateway is closing: they get its refusal). */
  release(): void;
  /** Makes `transport` deliver, in order, each message that must wait once the round is over. */
  hold(transport: Transport): void;
}

/** A gate over `ready` (undefined: nothing waits, the servers connected before the gateway began). */
export function upstreamsGate(ready: Promise<unknown> | undefined): UpstreamsGate {
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
  return {
    release,
    wait: (body) => (open || !needsUpstreams(body) ? undefined : settled),
    hold(transport) {
      if (open) return;
      // Another observer may have wrapped `onmessage` already (the listen observer): chain to it.
      const previous = Object.getOwnPropertyDescriptor(transport, 'onmessage');
      let handler: Transport['onmessage'];
      let queue: Promise<void> | undefined;
      let waiting = 0;
      const wrap = (next: NonNullable<Transport['onmessage']>): Transport['onmessage'] => {
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
      };
      Object.defineProperty(transport, 'onmessage', {
        configurable: true,
        get: () => (previous?.get ? previous.get.call(transport) : handler),
        set: (next: Transport['onmessage']) => {
          const wrapped = next === undefined ? undefined : wrap(next);
          if (previous?.set) previous.set.call(transport, wrapped);
          else handler = wrapped;
        },
      });
    },
  };
}
