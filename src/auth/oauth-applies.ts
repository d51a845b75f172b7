import type { HttpServerConfig, ServerConfig } from '../config/config-types.js';

/**
 * Whether OAuth may run for `config`: an HTTP server with no static credentials. A configured
 * `Authorization` header, bearer token or API key always wins and is never replaced by OAuth.
 */
export function oauthApplies(config: ServerConfig): config is HttpServerConfig {
  if (config.type === 'stdio') return false;
  if (config.auth !== undefined && config.auth.type !== 'oauth') return false;
  return !Object.keys(config.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
}
