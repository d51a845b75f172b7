import { basename } from 'node:path';
import type { McpToolsConfig, ServerConfig } from './config-types.js';
import { applySandboxDefault } from './sandbox-default.js';
import type { SandboxSettings } from './sandbox-settings.js';

/** The variable that turns serve's default box off for one process (`off`), as `"gateway": { "sandbox": false }`. */
export const SERVE_SANDBOX_DEFAULT_ENV = 'MCPTOOLS_SERVE_SANDBOX';

/** Commands that start a container: the engine boxes them, not bubblewrap. */
const CONTAINER_COMMANDS = new Set(['docker', 'podman']);

/**
 * The box `mcptools serve` gives a stdio server when neither `gateway.sandbox` nor the
 * top-level `sandbox` says anything: no network, no grants, and where bubblewrap is missing the
 * server runs unboxed with a warning rather than being refused (`ifAvailable`). `extra` adds
 * the grants one entry needs (the built-in configuration's folder and installed packages).
 */
export function serveDefaultBox(extra: SandboxSettings = {}): SandboxSettings {
  return { ...extra, ifAvailable: true };
}

/**
 * Applies `serve`'s default box to `config`'s stdio servers without a `sandbox` of their own
 * and not `trusted`: `gateway.sandbox` when set, else (the top-level `sandbox` being applied by
 * the reader already) {@link serveDefaultBox}, with `grants(name)` added per entry. A server
 * whose command is `docker` or `podman` is left to its engine's box. `MCPTOOLS_SERVE_SANDBOX=off`
 * leaves servers as the configuration says (what the test suite sets for the tests that are
 * not about boxes).
 */
export function applyServeSandboxDefault(
  config: McpToolsConfig,
  grants: (name: string, server: ServerConfig) => SandboxSettings | undefined = () => undefined,
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (config.gateway?.sandbox !== undefined) {
    applySandboxDefault(config.servers, config.gateway.sandbox);
    return;
  }
  if (config.sandbox !== undefined || env[SERVE_SANDBOX_DEFAULT_ENV] === 'off') return;
  for (const [name, server] of Object.entries(config.servers)) {
    if (server.type !== 'stdio' || server.sandbox !== undefined || server.trusted === true) continue;
    if (CONTAINER_COMMANDS.has(basename(server.command))) continue;
    server.sandbox = serveDefaultBox(grants(name, server));
  }
}
