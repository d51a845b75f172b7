/**
 * `mcptools/auth`: OAuth for remote MCP servers: where tokens are kept (the file vault, memory, or
 * a store of your own), the authorization a hub starts, and the configuration of both.
 */
export { authCommand } from './auth/auth-required-error.js';
export { defaultVaultPath } from './paths/default-vault-path.js';
export { FileTokenStore } from './auth/file-token-store.js';
export { MemoryTokenStore } from './auth/memory-token-store.js';
export type { AuthorizationStart, AuthorizationUrlHandler } from './auth/server-authorization.js';
export type { OAuthHostOptions } from './auth/server-authorizations.js';
export type { TokenStore, VaultEntry, VaultUpdate } from './auth/token-store.js';
export type { HttpAuth, OAuthConfig, TokenExchangeConfig } from './config/config-types.js';
