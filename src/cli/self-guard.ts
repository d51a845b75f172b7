import { realpathSync } from 'node:fs';
import { activateGatewayChain, configKeyOf } from '../chain/gateway-chain.js';
import type { McpToolsConfig, ServerConfig } from '../config/config-types.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { selfReference } from './self-reference.js';

/** What a command that loads servers tells {@link selfGuard} about itself. */
export interface SelfGuardOptions {
  /** Set for `serve`: this process is a gateway hop (its profile, if one is served). */
  gateway?: { profile?: string };
  /** Where `serve --http` listens (bound before any server connects). */
  listen?: readonly { host: string; port: number }[];
}

/**
 * The `skip` of a CLI session (docs/gateway-recursion.md): entries that are this mcptools
 * (its own `serve` of the same configuration, its own URL, a bridge to it) are `skipped`
 * before anything starts. For `serve`, this process also becomes a gateway hop: when the
 * chain it inherited already serves this configuration it refuses to start at all (throws
 * `CONFIG_INVALID` with the loop message, which a parent gateway reads from its stderr and
 * marks that entry `skipped`).
 */
export function selfGuard(
  config: McpToolsConfig,
  builtIn: boolean,
  options: SelfGuardOptions,
): (name: string, server: ServerConfig) => string | undefined {
  const configFile = builtIn ? undefined : realConfigPath(config.source);
  if (options.gateway) {
    const { loop } = activateGatewayChain(configKeyOf(configFile, options.gateway.profile));
    if (loop !== undefined) throw new McpToolsError('CONFIG_INVALID', loop, { recoverable: false });
  }
  const identity = {
    configFile,
    cwd: process.cwd(),
    ...(options.listen ? { listen: options.listen } : {}),
    entryPoints: process.argv[1] ? [process.argv[1]] : [],
  };
  return (_name, server) => selfReference(server, identity);
}

function realConfigPath(source: string | undefined): string | undefined {
  if (source === undefined) return undefined;
  try {
    return realpathSync(source);
  } catch {
    return source;
  }
}
