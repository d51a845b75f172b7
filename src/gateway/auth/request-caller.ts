import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Caller } from '../../tool/call-context.js';

/** A checked caller as the SDK's pass-through `authInfo` (how the HTTP faces hand it to the handlers). */
export function principalAuth(who: Caller): AuthInfo {
  return {
    token: 'gateway',
    clientId: who.principal,
    scopes: who.owner ? ['owner'] : [],
    extra: { caller: who },
  };
}

/** The caller a request's `authInfo` carries (see {@link principalAuth}). */
export function authCaller(authInfo: AuthInfo | undefined): Caller | undefined {
  return authInfo?.extra?.caller as Caller | undefined;
}
