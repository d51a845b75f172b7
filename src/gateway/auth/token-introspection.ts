import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';

/** Where and as whom the gateway introspects tokens. */
export interface IntrospectionSettings {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Default 5000 ms. */
  timeoutMs?: number;
}

/** `application/x-www-form-urlencoded` escaping of a client id or secret for HTTP Basic (RFC 6749 §2.3.1). */
const formEscape = (value: string) => encodeURIComponent(value).replaceAll('%20', '+');

/**
 * Asks the authorization server about `token` (RFC 7662), authenticated as the gateway's own
 * client (`client_secret_basic`). Resolves with the response's members (`active`, `sub`,
 * `client_id`, `scope`, `aud`, `exp`, …); a server that cannot be reached or answers
 * something else is a `server_error` (500), never a reason to let the token in.
 */
export async function introspectToken(
  token: string,
  settings: IntrospectionSettings,
): Promise<Record<string, unknown>> {
  const basic = Buffer.from(`${formEscape(settings.clientId)}:${formEscape(settings.clientSecret)}`).toString(
    'base64',
  );
  let response: Response;
  try {
    response = await fetch(settings.url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      signal: AbortSignal.timeout(settings.timeoutMs ?? 5000),
    });
  } catch {
    throw new OAuthError(OAuthErrorCode.ServerError, 'The authorization server cannot be reached');
  }
  const body: unknown = response.ok ? await response.json().catch(() => undefined) : undefined;
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new OAuthError(OAuthErrorCode.ServerError, 'The authorization server cannot be reached');
  return body as Record<string, unknown>;
}
