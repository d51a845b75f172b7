import type { ServerConfig } from './config-types.js';
import type { SandboxSetting } from './sandbox-settings.js';

/**
 * Gives `setting` (a default box: the top-level `sandbox`, or `gateway.sandbox` under `serve`)
 * to every stdio server of `servers` that has no `sandbox` of its own and is not `trusted`.
 * HTTP servers are left alone: their process, if any, is not ours to start.
 */
export function applySandboxDefault(
  servers: Record<string, ServerConfig>,
  setting: SandboxSetting | undefined,
): void {
  if (setting === undefined) return;
  for (const server of Object.values(servers)) {
    if (server.type !== 'stdio' || server.sandbox !== undefined || server.trusted === true) continue;
    server.sandbox = setting;
  }
}

/**
 * {@link applySandboxDefault} without touching `servers`: a copy whose defaulted entries are
 * copies too (for a configuration a library caller passed in, which stays theirs).
 */
export function withSandboxDefault(
  servers: Record<string, ServerConfig>,
  setting: SandboxSetting | undefined,
): Record<string, ServerConfig> {
  if (setting === undefined) return servers;
  const copy: Record<string, ServerConfig> = {};
  for (const [name, server] of Object.entries(servers)) {
    const defaulted = server.type === 'stdio' && server.sandbox === undefined && server.trusted !== true;
    copy[name] = defaulted ? { ...server, sandbox: setting } : server;
  }
  return copy;
}
