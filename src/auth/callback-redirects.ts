import { McpToolsError } from '../errors/mcp-tools-error.js';
import { answerCallback, type LoopbackRedirect } from './loopback-redirect.js';
import type { RedirectReceiver } from './server-authorization.js';

interface Waiting {
  state: () => string | undefined;
  /** The gateway caller who started the flow, when it has one: only they may complete it. */
  owner: string | undefined;
  resolve(params: URLSearchParams): void;
  reject(error: Error): void;
}

/** The path of the gateway's OAuth redirect endpoint. */
export const OAUTH_CALLBACK_PATH = '/oauth/callback';

/** Who presents a gateway token (its principal), or `undefined` for a token the gateway refuses. */
export type CallerOfToken = (token: string) => Promise<string | undefined>;

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; form-action 'self'",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The authorization redirects of many sign-ins, received at one URL the gateway serves
 * (`/oauth/callback`) instead of a loopback listener each. A redirect settles the one flow whose
 * `state` (random, 128 bits, made for that flow and kept with its PKCE verifier on the server)
 * it carries. A flow started for a gateway caller (an `owner`) is bound to its starter: whoever
 * opens a sign-in link signs in to the upstream as themselves, so the redirect's page asks for
 * the caller's gateway token and completes the flow only when that token is the starter's; any
 * other token ends the flow, and the upstream account it signed in to is never used.
 */
export class CallbackRedirects {
  readonly #waiting = new Set<Waiting>();
  readonly #redirectUrl: () => string;
  readonly #link: ((authorizationUrl: URL, owner: string) => URL) | undefined;

  /**
   * `redirectUrl` is read when a flow starts (the gateway's address may be known only once it
   * listens). `link`, when the gateway has a browser login: the link a caller is handed for
   * their flow's authorization URL (then {@link settleFor} completes flows, not the token page).
   */
  constructor(redirectUrl: () => string, link?: (authorizationUrl: URL, owner: string) => URL) {
    this.#redirectUrl = redirectUrl;
    this.#link = link;
  }

  /** Flows waiting for their redirect. */
  get size(): number {
    return this.#waiting.size;
  }

  /** A {@link RedirectReceiver} for `ServerAuthorization`. */
  readonly receiver: RedirectReceiver = async (state, owner) => {
    let waiting!: Waiting;
    const callback = new Promise<URLSearchParams>((resolve, reject) => {
      waiting = { state, owner, resolve, reject };
    });
    callback.catch(() => undefined);
    this.#waiting.add(waiting);
    const link = this.#link;
    const redirect: LoopbackRedirect = {
      redirectUrl: this.#redirectUrl(),
      callback,
      ...(link === undefined || owner === undefined ? {} : { present: (url: URL) => link(url, owner) }),
      close: async () => {
        this.#waiting.delete(waiting);
        waiting.reject(new McpToolsError('ABORTED', 'the authorization flow ended'));
      },
    };
    return redirect;
  };

  /**
   * The answer to `GET /oauth/callback?…`: settles the flow whose state the query carries, or,
   * for a flow bound to a caller, answers with the page that asks for their token (see
   * {@link confirm}). A request for no waiting flow gets 400 and changes nothing.
   */
  answer(url: URL): Response {
    const state = url.searchParams.get('state');
    const waiting = this.#find(state);
    if (
      waiting?.owner !== undefined &&
      url.searchParams.get('error') === null &&
      url.searchParams.get('code')
    )
      return new Response(confirmationPage(url.searchParams), { status: 200, headers: HTML_HEADERS });
    return this.#settle(waiting, url.searchParams, state);
  }

  /**
   * The answer to `POST /oauth/callback` from the confirmation page: the redirect's parameters
   * and the caller's gateway token. The flow completes only when the token is its starter's;
   * another caller's token (or none that the gateway accepts) ends the flow with 403.
   */
  async confirm(form: URLSearchParams, callerOf: CallerOfToken): Promise<Response> {
    const state = form.get('state');
    const token = form.get('token') ?? '';
    const params = new URLSearchParams([...form].filter(([name]) => name !== 'token'));
    const waiting = this.#find(state);
    if (waiting?.owner === undefined) return this.#settle(waiting, params, state);
    const caller = token === '' ? undefined : await callerOf(token).catch(() => undefined);
    if (this.#find(state) !== waiting) return this.#settle(undefined, params, state);
    if (caller !== waiting.owner) {
      this.#waiting.delete(waiting);
      waiting.reject(
        new McpToolsError('PERMISSION_DENIED', 'the sign-in was completed by someone other than its starter'),
      );
      return new Response(
        page('This sign-in was started by another caller of the gateway, so it is cancelled'),
        { status: 403, headers: HTML_HEADERS },
      );
    }
    return this.#settle(waiting, params, state);
  }

  /**
   * Completes the flow whose state `params` carries for `principal`, whom a browser login proved
   * to be the browser's user: `settled` when they started it; `refused` when someone else did
   * (the flow ends, and the upstream account signed in to is never used) or the redirect holds
   * an error; `unknown` when no flow here waits for that state (another replica's, or none).
   */
  settleFor(params: URLSearchParams, principal: string): 'settled' | 'refused' | 'unknown' {
    const state = params.get('state');
    const waiting = this.#find(state);
    if (waiting === undefined) return 'unknown';
    if (waiting.owner !== principal) {
      this.#waiting.delete(waiting);
      waiting.reject(
        new McpToolsError('PERMISSION_DENIED', 'the sign-in was completed by someone other than its starter'),
      );
      return 'refused';
    }
    const answer = answerCallback(params, state!);
    if (answer.outcome === undefined) return 'refused';
    this.#waiting.delete(waiting);
    if ('error' in answer.outcome) {
      waiting.reject(answer.outcome.error);
      return 'refused';
    }
    waiting.resolve(answer.outcome.params);
    return 'settled';
  }

  #find(state: string | null): Waiting | undefined {
    return state === null ? undefined : [...this.#waiting].find((entry) => entry.state() === state);
  }

  #settle(waiting: Waiting | undefined, params: URLSearchParams, state: string | null): Response {
    const answer = answerCallback(params, waiting === undefined ? '\0no flow' : state!);
    if (waiting !== undefined && answer.outcome !== undefined) {
      this.#waiting.delete(waiting);
      if ('error' in answer.outcome) waiting.reject(answer.outcome.error);
      else waiting.resolve(answer.outcome.params);
    }
    return new Response(answer.html, { status: answer.status, headers: HTML_HEADERS });
  }
}

const page = (title: string) =>
  `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><p>${escapeHtml(title)}.</p>\n`;

/** The page that finishes a caller's sign-in: the redirect's parameters, and a field for the caller's gateway token. */
function confirmationPage(params: URLSearchParams): string {
  const hidden = [...params]
    .filter(([name]) => name !== 'token')
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return `<!doctype html><meta charset="utf-8"><title>Finish signing in</title>
<p>To finish signing in, give the token you call the gateway with: only the caller who started this sign-in can finish it.</p>
<form method="post" action="${OAUTH_CALLBACK_PATH}">${hidden}
<label>Your gateway token <input type="password" name="token" autocomplete="off" required></label>
<button type="submit">Finish signing in</button></form>
`;
}
