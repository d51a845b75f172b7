import { McpToolsError } from '../errors/mcp-tools-error.js';
import { answerCallback, type LoopbackRedirect } from './loopback-redirect.js';
import type { RedirectReceiver } from './server-authorization.js';

interface Waiting {
  state: () => string | undefined;
  resolve(params: URLSearchParams): void;
  reject(error: Error): void;
}

/** The path of the gateway's OAuth redirect endpoint. */
export const OAUTH_CALLBACK_PATH = '/oauth/callback';

/**
 * The authorization redirects of many sign-ins, received at one URL the gateway serves
 * (`/oauth/callback`) instead of a loopback listener each. A redirect settles the one flow whose
 * `state` (random, 128 bits, made for that flow and kept with its PKCE verifier on the server)
 * it carries; the state is what binds the redirect to the principal who started the flow.
 */
export class CallbackRedirects {
  readonly #waiting = new Set<Waiting>();
  readonly #redirectUrl: () => string;

  /** `redirectUrl` is read when a flow starts (the gateway's address may be known only once it listens). */
  constructor(redirectUrl: () => string) {
    this.#redirectUrl = redirectUrl;
  }

  /** Flows waiting for their redirect. */
  get size(): number {
    return this.#waiting.size;
  }

  /** A {@link RedirectReceiver} for `ServerAuthorization`. */
  readonly receiver: RedirectReceiver = async (state) => {
    let waiting!: Waiting;
    const callback = new Promise<URLSearchParams>((resolve, reject) => {
      waiting = { state, resolve, reject };
    });
    callback.catch(() => undefined);
    this.#waiting.add(waiting);
    const redirect: LoopbackRedirect = {
      redirectUrl: this.#redirectUrl(),
      callback,
      close: async () => {
        this.#waiting.delete(waiting);
        waiting.reject(new McpToolsError('ABORTED', 'the authorization flow ended'));
      },
    };
    return redirect;
  };

  /**
   * The answer to `GET /oauth/callback?…`: settles the flow whose state the query carries. A
   * request for no waiting flow gets 400 and changes nothing.
   */
  answer(url: URL): Response {
    const state = url.searchParams.get('state');
    const waiting = state === null ? undefined : [...this.#waiting].find((entry) => entry.state() === state);
    const answer = answerCallback(url.searchParams, waiting === undefined ? '\0no flow' : state!);
    if (waiting !== undefined && answer.outcome !== undefined) {
      this.#waiting.delete(waiting);
      if ('error' in answer.outcome) waiting.reject(answer.outcome.error);
      else waiting.resolve(answer.outcome.params);
    }
    return new Response(answer.html, {
      status: answer.status,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "default-src 'none'",
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      },
    });
  }
}
