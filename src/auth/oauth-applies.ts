import type { HttpServerConfig, ServerConfig } from '../config/config-types.js';

/**
 * Whether OAuth may run for `config`: an HTTP server with no static credentials. A configured
 * `Authorization` header, bearer token, API key or URL credentials always win and are never
 * replaced by OAuth.
 */
export function oauthApplies(config: ServerConfig): config is HttpServerConfig {
  if (config.type === 'stdio') return false;
  if (config.auth !== undefined && config.auth.type !== 'oauth') return false;
  try {
    // `https://user:secret@host/…` becomes a static Basic Authorization header.
    const url = new URL(config.url);
    if (url.username || url.password) return false;
  } catch {
    return false;
  }
  return !Object.keys(config.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
}
