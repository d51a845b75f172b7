import { closestKey } from './closest-key.js';
import { type ConfigErrorLocation, describeConfigLocation } from './config-error.js';

/**
 * The warning for a key a lenient format (Claude, Cursor, VS Code, Codex) does not use: it is
 * ignored rather than refused, since hosts add keys of their own, but a misspelt known key
 * (`comand`) gets "did you mean".
 */
export function ignoredKeyWarning(location: ConfigErrorLocation, knownKeys: Iterable<string>): string {
  const near = location.field === undefined ? undefined : closestKey(location.field, [...knownKeys]);
  return `${describeConfigLocation(location)}: not used by mcptools, ignored${near === undefined ? '' : `; did you mean "${near}"?`}`;
}
