import type { McpToolHub, ServerState } from '../../mcp/hub-types.js';
import type { Caller } from '../../tool/call-context.js';
import type { GatewayProfile } from '../profiles/gateway-profile.js';
import { LISTS } from './upstreams-ready.js';

/** States that end a server's part in the first connect round (it will not connect sooner). */
const SETTLED: ReadonlySet<ServerState> = new Set([
  'connected',
  'error',
  'disabled',
  'skipped',
  'auth_required',
]);

/** What {@link ownUpstreams} needs to know about the gateway. */
export interface UpstreamWaitScope {
  hub: McpToolHub;
  /** The separator between a server's name and its tools' names (`__` by default). */
  separator: string;
  /** Settles with the first connect round: the watch ends then whatever it waited for. */
  round: Promise<unknown>;
}

/**
 * While the first connect round runs, what one HTTP request needs of it, so that it waits for
 * its own servers and not for the slowest of all: a `tools/call` resolves once its tool is
 * served (its server connected), or once the servers its name can belong to settled; a
 * list at a profile that admits some servers only resolves once those settled. `undefined`
 * when the request needs the whole round (a list of every server: router and plugin tools
 * come with the round; a call through the router; anything else).
 */
export function ownUpstreams(
  scope: UpstreamWaitScope,
  profile: GatewayProfile,
  who: Caller,
  body: unknown,
): Promise<void> | undefined {
  const message = body as { method?: unknown; params?: { name?: unknown } } | null;
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { hub } = scope;
  const state = (server: string) => hub.status(server)?.state;
  if (message.method === 'tools/call' && typeof message.params?.name === 'string') {
    const name = message.params.name;
    // The servers whose namespaced tools this name could be (a prefix of its own may differ:
    // then the call waits for the round).
    const candidates = hub.servers().filter((server) => name.startsWith(server + scope.separator));
    const served = async () => (await profile.tool(name, { owner: who.owner, caller: who })) !== undefined;
    // Settled without serving the name (failed, or connected without such a tool): no wait helps.
    const gaveUp = () =>
      candidates.length > 0 && candidates.every((server) => SETTLED.has(state(server) as ServerState));
    return whenever(hub, async () => gaveUp() || (await served()), scope.round);
  }
  if (typeof message.method === 'string' && LISTS.has(message.method)) {
    const all = hub.servers();
    const admitted = all.filter((server) => profile.allowsServer(server));
    if (admitted.length === all.length) return undefined;
    return whenever(
      hub,
      () => admitted.every((server) => SETTLED.has(state(server) as ServerState)),
      scope.round,
    );
  }
  return undefined;
}

/**
 * Resolves once `holds()` does: checked now and again after each change of a server's state
 * or tools, until `round` settles (the gate answers then anyway, and the listeners go).
 */
function whenever(
  hub: McpToolHub,
  holds: () => boolean | Promise<boolean>,
  round: Promise<unknown>,
): Promise<void> {
  return new Promise<void>((resolve) => {
    let done = false;
    const unsubscribe: (() => void)[] = [];
    const finish = () => {
      if (done) return;
      done = true;
      for (const off of unsubscribe) off();
      resolve();
    };
    const check = () => {
      if (done) return;
      void Promise.resolve()
        .then(holds)
        .then(
          (held) => {
            if (held) finish();
          },
          () => finish(),
        );
    };
    unsubscribe.push(hub.on('status', check), hub.on('toolsChanged', check));
    void round.then(finish, finish);
    check();
  });
}
