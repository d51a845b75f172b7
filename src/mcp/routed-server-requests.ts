import { type ListRootsResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type {
  ElicitationHandler,
  RootsHandler,
  SamplingHandler,
  ServerRequestContext,
  ServerRequestOptions,
} from './server-request-handlers.js';

/**
 * The server→client request handlers a gateway installs on the hub it serves
 * (`McpToolHub.routeServerRequests`): each hands the request to the downstream client whose
 * call caused it.
 */
export interface McpServerRequestRouter {
  onSamplingRequest: SamplingHandler;
  onElicitation: ElicitationHandler;
  onRootsRequest: RootsHandler;
}

/**
 * Which server→client requests a hub declares to its servers. `routed`: sampling, elicitation
 * and roots, whoever answers them (the hub's own handlers, else the gateway serving it, else an
 * error saying what is missing). `configured`: only those the hub's own handlers (or roots)
 * answer, so that a server which checks takes its path without them; such a hub takes no
 * router (the SDK refuses a handler for a capability the client did not declare).
 */
export type ServerRequestDeclaration = 'routed' | 'configured';

/** The handlers and roots given to `loadMcpServers`: they answer before any router. */
export interface OwnServerRequests {
  onSamplingRequest?: SamplingHandler | undefined;
  onElicitation?: ElicitationHandler | undefined;
  onRootsRequest?: RootsHandler | undefined;
  roots?: { uri: string; name?: string }[] | undefined;
}

const missing = {
  'sampling/createMessage':
    'sampling is not enabled in mcptools; pass onSamplingRequest to loadMcpServers, or serve the hub through createGateway, which routes it to the caller',
  'elicitation/create':
    'elicitation is not enabled in mcptools; pass onElicitation to loadMcpServers, or serve the hub through createGateway, which routes it to the caller',
  'roots/list':
    'roots are not enabled in mcptools; pass workspaceDir or roots to loadMcpServers, or serve the hub through createGateway, which routes them to the caller',
} as const;

/**
 * The server→client requests of one hub: its own handlers answer first, then the router
 * installed last (a gateway's), then its configured roots; anything else is refused with an
 * error naming what is missing, which the hub also reports as a warning — never silently.
 * A router can be installed after the servers connected: the handlers registered on each
 * client look it up per request, and `routed` declared the capabilities up front.
 */
export class RoutedServerRequests {
  /** What every connection of the hub registers and declares (one object: the SDK copies it). */
  readonly options: ServerRequestOptions;
  /** The routers installed, the last one answering (several gateways may serve one hub). */
  readonly #routers: McpServerRequestRouter[] = [];
  /** Whether the requests were declared `routed` (else no router is taken). */
  readonly #routable: boolean;

  constructor(
    own: OwnServerRequests,
    declaration: ServerRequestDeclaration,
    warn: (message: string, server: string) => void,
  ) {
    const refuse = (method: keyof typeof missing, context: ServerRequestContext): never => {
      const message = missing[method];
      warn(`server "${context.server}" asked for ${method}, refused: ${message}`, context.server);
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, message);
    };
    const { roots } = own;
    this.#routable = declaration === 'routed';
    if (!this.#routable) {
      this.options = {
        ...(own.onSamplingRequest ? { onSamplingRequest: own.onSamplingRequest } : {}),
        ...(own.onElicitation ? { onElicitation: own.onElicitation } : {}),
        ...(own.onRootsRequest ? { onRootsRequest: own.onRootsRequest } : {}),
        ...(roots ? { roots } : {}),
      };
      return;
    }
    this.options = {
      onSamplingRequest:
        own.onSamplingRequest ??
        (async (request, context) => {
          const router = this.#routers.at(-1);
          return router
            ? router.onSamplingRequest(request, context)
            : refuse('sampling/createMessage', context);
        }),
      onElicitation:
        own.onElicitation ??
        (async (request, context) => {
          const router = this.#routers.at(-1);
          return router ? router.onElicitation(request, context) : refuse('elicitation/create', context);
        }),
      onRootsRequest:
        own.onRootsRequest ??
        (async (context): Promise<ListRootsResult> => {
          const router = this.#routers.at(-1);
          if (router) return router.onRootsRequest(context);
          return roots ? { roots } : refuse('roots/list', context);
        }),
      declares: { sampling: true, elicitation: true, roots: true },
    };
  }

  /**
   * Hands the requests the hub's own handlers do not answer to `router` until the returned
   * function is called; the router installed last answers. `undefined` when they were declared
   * `configured`: nothing is routed then.
   */
  route(router: McpServerRequestRouter): (() => void) | undefined {
    if (!this.#routable) return undefined;
    this.#routers.push(router);
    return () => {
      const index = this.#routers.lastIndexOf(router);
      if (index >= 0) this.#routers.splice(index, 1);
    };
  }
}
