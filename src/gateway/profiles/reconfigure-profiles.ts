import type { GatewayConfig, GatewayProfileConfig, McpToolsConfig } from '../../config/config-types.js';
import { GatewayProfile, type ProfileParts } from './gateway-profile.js';
import { servedProfiles } from './server-profiles.js';

/** What the default profile (`/mcp`, stdio) takes from a host beside `gateway` of the configuration. */
export type DefaultProfileOverrides = Pick<GatewayProfileConfig, 'mode' | 'pin' | 'tools' | 'servers'>;

/**
 * The settings of the default profile: the host's `overrides` (the gateway's options, `serve
 * --mode`/`--profile`) over the `gateway` section of the configuration.
 */
export function defaultProfileSettings(
  gateway: GatewayConfig,
  overrides: DefaultProfileOverrides,
): GatewayProfileConfig {
  const mode = overrides.mode ?? gateway.mode;
  const pin = overrides.pin ?? gateway.pin;
  const tools = overrides.tools ?? gateway.tools;
  const servers = overrides.servers ?? gateway.servers;
  return {
    ...(mode ? { mode } : {}),
    ...(gateway.who ? { who: gateway.who } : {}),
    ...(pin ? { pin } : {}),
    ...(tools ? { tools } : {}),
    ...(servers ? { servers } : {}),
    ...(gateway.maxNameLength ? { maxNameLength: gateway.maxNameLength } : {}),
    ...(gateway.overrides ? { overrides: gateway.overrides } : {}),
  };
}

/** A profile taken out of the configuration: it serves no tool and admits no server. */
const RETIRED: GatewayProfileConfig = { mode: 'full', tools: { deny: ['**'] }, servers: { deny: ['**'] } };

/** What {@link reconfigureProfiles} did, by profile name. */
export interface ProfileChanges {
  added: string[];
  removed: string[];
  kept: string[];
}

/**
 * Applies a reloaded configuration's profiles and router settings to `profiles` (the gateway's,
 * by name) from the next request on:
 * the default profile takes `defaults`, each named profile its new settings (in place: open
 * sessions keep their profile object), a new one is made, and one no longer configured is
 * retired (it serves nothing, so its open sessions lose their tools; it is dropped at the next
 * reconfiguration that still does not name it). `parts.config` becomes `config`, so that
 * the router tools built now read its `router` section. The caller announces the change
 * (the core's `toolsChanged`): each client whose list changed hears one `list_changed`.
 */
export function reconfigureProfiles(
  profiles: Map<string, GatewayProfile>,
  parts: ProfileParts,
  config: McpToolsConfig,
  defaults: DefaultProfileOverrides,
  retired: Set<string>,
): ProfileChanges {
  const changes: ProfileChanges = { added: [], removed: [], kept: [] };
  parts.config = config;
  const gateway = config.gateway ?? {};
  profiles.get('')?.reconfigure(defaultProfileSettings(gateway, defaults));
  const wanted = servedProfiles(config, undefined);
  for (const [name, profile] of profiles) {
    if (name === '' || Object.hasOwn(wanted, name)) continue;
    if (retired.has(name)) {
      profiles.delete(name);
      retired.delete(name);
      continue;
    }
    profile.reconfigure(RETIRED);
    retired.add(name);
    changes.removed.push(name);
  }
  for (const [name, settings] of Object.entries(wanted)) {
    const existing = profiles.get(name);
    retired.delete(name);
    if (existing) {
      existing.reconfigure(settings);
      changes.kept.push(name);
    } else {
      profiles.set(name, new GatewayProfile(name, settings, parts));
      changes.added.push(name);
    }
  }
  return changes;
}
