import { type ConfigErrorLocation, describeConfigLocation } from './config-error.js';
import type { ProtocolMode } from './config-types.js';

/** The values of `protocol`, the default first. */
export const PROTOCOL_MODES: readonly ProtocolMode[] = [
  '2025-first',
  '2026-07-28-first',
  '2025',
  '2026-07-28',
];

/**
 * The names `protocol` had before the eras were called by their names (`2025`, `2026-07-28`),
 * still read, each with the mode it means. `legacy` now names only the old HTTP+SSE transport.
 */
export const DEPRECATED_PROTOCOL_MODES: Readonly<Record<string, ProtocolMode>> = {
  initialize: '2025-first',
  auto: '2026-07-28-first',
  legacy: '2025',
  modern: '2026-07-28',
};

/** Every value `protocol` accepts: the modes and their deprecated names. */
export const ACCEPTED_PROTOCOL_VALUES: readonly string[] = [
  ...PROTOCOL_MODES,
  ...Object.keys(DEPRECATED_PROTOCOL_MODES),
];

// One warning per place a deprecated name is written, however often the file is read (a
// gateway reloads its configuration): the user needs to hear it, not to be flooded.
const warned = new Set<string>();

/**
 * The mode a validated `protocol` value means: itself, or the mode of its deprecated name, with a
 * warning naming the file, the server and the field (once per place).
 */
export function protocolMode(
  value: string,
  location: ConfigErrorLocation,
  warn: (message: string) => void,
): ProtocolMode {
  const mode = DEPRECATED_PROTOCOL_MODES[value];
  if (mode === undefined) return value as ProtocolMode;
  const where = describeConfigLocation(location);
  if (!warned.has(where)) {
    warned.add(where);
    warn(`${where}: "${value}" is deprecated, write "${mode}" (it means the same)`);
  }
  return mode;
}
