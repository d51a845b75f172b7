/**
 * The catalog mcptools reads when the configuration names none and `MCPTOOLS_REGISTRY` is unset:
 * the official MCP Registry. The one place its address is written.
 */
export const DEFAULT_CATALOG_URL = 'https://registry.modelcontextprotocol.io';
