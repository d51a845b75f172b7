import { randomBytes } from 'node:crypto';
import { OAUTH_CALLBACK_PATH } from '../../auth/callback-redirects.js';
import type { HeaderSource } from '../../http/header-source.js';
import type { PinGuard } from '../../pins/pin-guard.js';
import type { Caller } from '../../tool/call-context.js';
import { type BrowserSession, type BrowserSessions, readCookie, setCookie } from './browser-session.js';
import { type FrontDoorLogin, LOGIN_CALLBACK_PATH } from './front-door-login.js';

/** Where a caller's sign-in link (and a person's login to the status page) starts. */
export const SIGN_IN_PATH = '/oauth/signin';
/** Where the status page's approve form posts. */
export const APPROVE_PATH = '/pins/approve';

const LOGIN_COOKIE = 'mcptools_login';
const FLOW_COOKIE = 'mcptools_signin';
/** The largest form the approve button posts. */
const MAX_FORM_BYTES = 16 * 1024;

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

/** A caller's sign-in link, sealed into its `flow` parameter: whose flow, and where it goes. */
interface SignInLink extends Record<string, unknown> {
  owner: string;
  url: string;
  state: string;
}

/** What the browser carries while it logs in at the issuer. */
interface LoginState extends Record<string, unknown> {
  verifier: string;
  state: string;
  nonce: string;
  redirectUri: string;
  /** The sealed sign-in link that sent it (none for a login to the status page). */
  link: string | null;
}

/** What the browser carries to `/oauth/callback`, once it proved it is the flow's starter. */
interface FlowState extends Record<string, unknown> {
  owner: string;
  state: string;
  nonce: string;
}

/** Settings of {@link BrowserRoutes}. */
export interface BrowserRoutesOptions {
  login: FrontDoorLogin;
  sessions: BrowserSessions;
  /** Seconds a sign-in link and a login under way stay valid. */
  flowSeconds: number;
  /** The gateway's public origin (the redirect URI's), or `undefined` to use the request's. */
  publicOrigin: () => string | undefined;
  /** Completes a caller's upstream sign-in for the browser's proven principal (see `CallbackRedirects.settleFor`). */
  settleFor?: (params: URLSearchParams, principal: string) => 'settled' | 'refused' | 'unknown';
  /** In a cluster: hands a callback no flow here waits for to the replica whose it is. */
  relay?: () => ((params: URLSearchParams, principal: string) => Promise<void>) | undefined;
  /** The pins whose held-back definitions the owner approves. */
  pins: () => PinGuard | undefined;
  log: (line: string) => void;
}

/**
 * The front door for browsers: a caller's upstream sign-in link that completes only in a browser
 * signed in as that caller, and the owner's status-page actions. `GET /oauth/signin` starts a
 * login at the front door's issuer (or uses the browser's session), `GET /oauth/login` is the
 * issuer's redirect, `GET /oauth/callback` the upstream's, `POST /pins/approve` the approve
 * button. Every state is sealed into the link or a short-lived, path-scoped cookie (any replica
 * opens it, none keeps a table), expires, and is used once. A browser session never opens `/mcp`:
 * only these routes and the status page read it. Every refusal is the same page, without detail.
 */
export class BrowserRoutes {
  readonly #options: BrowserRoutesOptions;

  constructor(options: BrowserRoutesOptions) {
    this.#options = options;
  }

  /** Whether these routes answer `method` `pathname`. */
  handles(method: string, pathname: string): boolean {
    if (method === 'GET')
      return (
        pathname === SIGN_IN_PATH ||
        pathname === LOGIN_CALLBACK_PATH ||
        (pathname === OAUTH_CALLBACK_PATH && this.#options.settleFor !== undefined)
      );
    if (method === 'POST')
      return (
        pathname === APPROVE_PATH ||
        (pathname === OAUTH_CALLBACK_PATH && this.#options.settleFor !== undefined)
      );
    return false;
  }

  /** The link a caller is handed for their flow's `authorizationUrl`, at the gateway's origin `base`. */
  link(authorizationUrl: URL, owner: string, base: string): URL {
    const value: SignInLink = {
      owner,
      url: authorizationUrl.href,
      state: authorizationUrl.searchParams.get('state') ?? '',
    };
    const link = new URL(SIGN_IN_PATH, base);
    link.searchParams.set(
      'flow',
      this.#options.sessions.seal('signin-link', value, this.#options.flowSeconds),
    );
    return link;
  }

  /** The caller the request's browser session stands for (status page only), if any. */
  sessionOf(request: HeaderSource): BrowserSession | undefined {
    return this.#options.sessions.sessionOf(request);
  }

  /** The caller of a session. */
  callerOf(session: BrowserSession): Caller {
    return this.#options.sessions.callerOf(session);
  }

  /**
   * The status page's caller from a browser session (`GET /` without a token), a redirect to the
   * login for a browser that has none, or `undefined` (the ordinary front door decides). Only
   * `GET /` reads the session: `/mcp` and every other endpoint never accept a cookie.
   */
  statusPageVisitor(request: HeaderSource, method: string, target: string): Caller | Response | undefined {
    if (method !== 'GET' || request.headers.get('authorization') !== null) return undefined;
    if (new URL(target, 'http://gateway.invalid').pathname !== '/') return undefined;
    const session = this.sessionOf(request);
    if (session !== undefined) return this.callerOf(session);
    if (!(request.headers.get('accept') ?? '').includes('text/html')) return undefined;
    return new Response(null, {
      status: 303,
      headers: { location: SIGN_IN_PATH, 'cache-control': 'no-store' },
    });
  }

  /** The CSRF token the status page's forms carry for `session`. */
  csrfToken(session: BrowserSession): string {
    return this.#options.sessions.csrfToken(session);
  }

  /** Answers a request {@link handles} said is one of these routes (Host and Origin were checked). */
  async serve(request: Request): Promise<Response> {
    const url = new URL(request.url);
    try {
      if (url.pathname === SIGN_IN_PATH) return await this.#signIn(request, url);
      if (url.pathname === LOGIN_CALLBACK_PATH) return await this.#loggedIn(request, url);
      if (url.pathname === OAUTH_CALLBACK_PATH)
        return request.method === 'GET' ? await this.#callback(request, url) : refused();
      return await this.#approve(request, url);
    } catch (error) {
      this.#options.log(
        `browser: ${url.pathname} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return refused();
    }
  }

  #origin(request: Request): string {
    return this.#options.publicOrigin() ?? new URL(request.url).origin;
  }

  #secure(request: Request): boolean {
    return new URL(this.#origin(request)).protocol === 'https:';
  }

  async #signIn(request: Request, url: URL): Promise<Response> {
    const { sessions } = this.#options;
    const sealedLink = url.searchParams.get('flow');
    const link = sealedLink === null ? undefined : sessions.open<SignInLink>('signin-link', sealedLink);
    if (sealedLink !== null && link === undefined) return refused();
    const session = sessions.sessionOf(request);
    if (session !== undefined && (link === undefined || session.principal === link.owner))
      return this.#proceed(request, session.principal, link, []);
    // No session, or another principal's: the browser logs in at the front door's issuer.
    const redirectUri = new URL(LOGIN_CALLBACK_PATH, this.#origin(request)).href;
    const start = await this.#options.login.start(redirectUri);
    const state: LoginState = {
      verifier: start.codeVerifier,
      state: start.state,
      nonce: start.nonce,
      redirectUri,
      link: sealedLink,
    };
    const cookie = setCookie(LOGIN_COOKIE, sessions.seal('login', state, this.#options.flowSeconds), {
      path: LOGIN_CALLBACK_PATH,
      maxAge: this.#options.flowSeconds,
      secure: this.#secure(request),
    });
    return redirect(start.url.href, [cookie]);
  }

  async #loggedIn(request: Request, url: URL): Promise<Response> {
    const { sessions } = this.#options;
    const secure = this.#secure(request);
    const cleared = setCookie(LOGIN_COOKIE, '', { path: LOGIN_CALLBACK_PATH, maxAge: 0, secure });
    const login = sessions.open<LoginState>('login', readCookie(request.headers.get('cookie'), LOGIN_COOKIE));
    if (login === undefined || url.searchParams.get('state') !== login.state) return refused([cleared]);
    // Once: a replayed redirect (the same state) is refused on every replica.
    if (!(await sessions.claimOnce(`login:${login.state}`, this.#options.flowSeconds * 1000)))
      return refused([cleared]);
    const who = await this.#options.login.finish(url.searchParams, {
      codeVerifier: login.verifier,
      nonce: login.nonce,
      redirectUri: login.redirectUri,
    });
    const cookies = [cleared, sessions.startSession(who, secure)];
    if (login.link === null) return this.#proceed(request, who.principal, undefined, cookies);
    const link = sessions.open<SignInLink>('signin-link', login.link);
    if (link === undefined) return refused(cookies);
    return this.#proceed(request, who.principal, link, cookies);
  }

  /**
   * A browser proven to be `principal` goes on: to the status page, or, for a sign-in link, to
   * the upstream's authorization URL when it is the link's owner (with the cookie that lets it
   * back in at `/oauth/callback`); another principal is refused without learning that URL.
   */
  #proceed(request: Request, principal: string, link: SignInLink | undefined, cookies: string[]): Response {
    if (link === undefined) return redirect('/', cookies);
    if (principal !== link.owner) return refused(cookies);
    const flow: FlowState = {
      owner: link.owner,
      state: link.state,
      nonce: randomBytes(16).toString('base64url'),
    };
    const cookie = setCookie(
      FLOW_COOKIE,
      this.#options.sessions.seal('signin-flow', flow, this.#options.flowSeconds),
      {
        path: OAUTH_CALLBACK_PATH,
        maxAge: this.#options.flowSeconds,
        secure: this.#secure(request),
      },
    );
    return redirect(link.url, [...cookies, cookie]);
  }

  async #callback(request: Request, url: URL): Promise<Response> {
    const { sessions } = this.#options;
    const cleared = setCookie(FLOW_COOKIE, '', {
      path: OAUTH_CALLBACK_PATH,
      maxAge: 0,
      secure: this.#secure(request),
    });
    const flow = sessions.open<FlowState>(
      'signin-flow',
      readCookie(request.headers.get('cookie'), FLOW_COOKIE),
    );
    const session = sessions.sessionOf(request);
    // The browser must be the flow's starter: its session names them, and it came through their link.
    if (
      flow === undefined ||
      session === undefined ||
      session.principal !== flow.owner ||
      url.searchParams.get('state') !== flow.state
    )
      return refused([cleared]);
    if (!(await sessions.claimOnce(`flow:${flow.nonce}`, this.#options.flowSeconds * 1000)))
      return refused([cleared]);
    let outcome = this.#options.settleFor!(url.searchParams, session.principal);
    if (outcome === 'unknown') {
      const relay = this.#options.relay?.();
      if (relay !== undefined) {
        await relay(url.searchParams, session.principal);
        outcome = 'settled';
      }
    }
    if (outcome !== 'settled') return refused([cleared]);
    return page(200, 'Signed in. You may close this window and call the tool again', [cleared]);
  }

  async #approve(request: Request, url: URL): Promise<Response> {
    const { sessions } = this.#options;
    const session = sessions.sessionOf(request);
    // A form posted from another site carries its own origin (or none): refused before its body is read.
    const origin = request.headers.get('origin');
    if (session === undefined || !session.owner || origin === null || !this.#sameOrigin(request, url, origin))
      return refused();
    const text = await request.text();
    if (text.length > MAX_FORM_BYTES) return refused();
    const form = new URLSearchParams(text);
    if (!sessions.checkCsrf(session, form.get('csrf'))) return refused();
    const server = form.get('server');
    const name = form.get('name');
    const pins = this.#options.pins();
    if (pins === undefined || !server || !name) return refused();
    // As `mcptools pins approve server/name`: in a cluster the pin relay tells the other replicas.
    const approved = await pins.approve(server, name);
    this.#options.log(`pins: ${server}/${name} approved from the status page by ${session.principal}`);
    if (approved.length === 0) return page(409, 'Nothing of that name is held back');
    return redirect('/', []);
  }

  #sameOrigin(request: Request, url: URL, origin: string): boolean {
    return origin === url.origin || origin === this.#origin(request);
  }
}

function redirect(location: string, cookies: string[]): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
  for (const cookie of cookies) headers.append('set-cookie', cookie);
  return new Response(null, { status: 303, headers });
}

function page(status: number, title: string, cookies: string[] = []): Response {
  const headers = new Headers(HTML_HEADERS);
  for (const cookie of cookies) headers.append('set-cookie', cookie);
  const escaped = title.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
  return new Response(`<!doctype html><meta charset="utf-8"><title>${escaped}</title><p>${escaped}.</p>\n`, {
    status,
    headers,
  });
}

/** The one refusal: nothing says which check failed. */
function refused(cookies: string[] = []): Response {
  return page(403, 'This link cannot be used here', cookies);
}
