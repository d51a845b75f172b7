import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BrowserSessions,
  memoryNonces,
  readCookie,
  SESSION_COOKIE,
  setCookie,
} from '../../src/gateway/auth/browser-session.js';

// The sealed values a browser carries for the gateway: each opens only under its key, for its
// purpose and before its expiry; a CSRF token only for its own session; a nonce once.

const key = randomBytes(32);
const sessions = (secret: Uint8Array = key) =>
  new BrowserSessions({ key: secret, sessionSeconds: 60, claimOnce: memoryNonces() });

afterEach(() => {
  vi.useRealTimers();
});

describe('BrowserSessions', () => {
  it('opens a value for its purpose, under its key, until it expires; nothing else', () => {
    const sealed = sessions().seal('signin-link', { owner: 'oauth:bob' }, 60);
    // The control: another instance with the same key (another replica) opens it.
    expect(sessions().open('signin-link', sealed)).toMatchObject({ owner: 'oauth:bob' });
    expect(sessions().open('login', sealed)).toBeUndefined();
    expect(sessions(randomBytes(32)).open('signin-link', sealed)).toBeUndefined();
    const bytes = Buffer.from(sealed.split('.')[2]!, 'base64');
    bytes[bytes.length - 1]! ^= 1;
    const tampered = `${sealed.split('.').slice(0, 2).join('.')}.${bytes.toString('base64')}`;
    expect(sessions().open('signin-link', tampered)).toBeUndefined();
    expect(sessions().open('signin-link', '')).toBeUndefined();
    expect(sessions().open('signin-link', undefined)).toBeUndefined();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    expect(sessions().open('signin-link', sealed)).toBeUndefined();
  });

  it('reads a session from its cookie and binds CSRF tokens to it', () => {
    const store = sessions();
    const cookie = store.startSession({ principal: 'oauth:alice', subject: 'alice', owner: true }, false);
    expect(cookie).toMatch(/^mcptools_session=v1\.b\.[^;]+; Path=\/; Max-Age=60; HttpOnly; SameSite=Lax$/);
    const headers = new Headers({ cookie: `other=1; ${cookie.split(';')[0]}` });
    const session = store.sessionOf({ headers });
    expect(session).toMatchObject({ principal: 'oauth:alice', subject: 'alice', owner: true });
    expect(store.callerOf(session!)).toEqual({
      principal: 'oauth:alice',
      owner: true,
      via: 'oauth',
      subject: 'alice',
    });
    const other = store.sessionOf({
      headers: new Headers({
        cookie: store.startSession({ principal: 'oauth:bob', owner: false }, true).split(';')[0]!,
      }),
    });
    const token = store.csrfToken(session!);
    expect(store.checkCsrf(session!, token)).toBe(true);
    expect(store.checkCsrf(other!, token)).toBe(false);
    expect(store.checkCsrf(session!, null)).toBe(false);
    // A session value sealed for another purpose is no session.
    const forged = store.seal(
      'csrf',
      { id: session!.id, principal: 'oauth:mallory', subject: 'm', owner: true },
      60,
    );
    expect(
      store.sessionOf({ headers: new Headers({ cookie: `${SESSION_COOKIE}=${forged}` }) }),
    ).toBeUndefined();
  });

  it('claims a nonce once until it expires', async () => {
    const claim = memoryNonces();
    expect(await claim('n1', 60_000)).toBe(true);
    expect(await claim('n1', 60_000)).toBe(false);
    expect(await claim('n2', 60_000)).toBe(true);
  });

  it('writes cookies HttpOnly, SameSite=Lax, Secure over https, scoped to a path', () => {
    expect(setCookie('a', 'b', { path: '/oauth/callback', maxAge: 300, secure: true })).toBe(
      'a=b; Path=/oauth/callback; Max-Age=300; HttpOnly; SameSite=Lax; Secure',
    );
    expect(readCookie('x=1; a=b=c; y', 'a')).toBe('b=c');
    expect(readCookie(null, 'a')).toBeUndefined();
  });
});
