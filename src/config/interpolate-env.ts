import { type ConfigErrorLocation, configError, describeConfigLocation } from './config-error.js';
import { type VaultLookup, vaultReferencePattern } from './vault-reference.js';

/** Options of {@link interpolateEnv}. */
export interface InterpolateEnvOptions {
  /** The environment `${VAR}` reads from. */
  env: Readonly<Record<string, string | undefined>>;
  /** Editor variables such as `workspaceFolder` (VS Code, Cursor); they win over `env`. */
  variables?: Readonly<Record<string, string>>;
  /** Where the value sits, for the error an unset variable raises. */
  location: ConfigErrorLocation;
  /** Receives a note for each placeholder left as is (`${input:token}`). */
  warn?: (message: string) => void;
  /** Receives each value taken from `env` or the vault, so that it can be redacted later. */
  onValue?: (value: string) => void;
  /** Resolves `${vault:<entry>/<NAME>}` (server entries only); without it the reference is left as is. */
  vault?: VaultLookup;
}

const placeholderPattern = /\$\{([^{}]*)\}/g;
const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Replaces `${VAR}`, `${VAR:-default}` and `${env:VAR}` in one configured string, and, with a
 * `vault` lookup, `${vault:<entry>/<NAME>}` (a secret `mcptools add` stored). An unset variable
 * without a default throws `CONFIG_INVALID` naming the file, server, field and the variable (never
 * its value), as does a vault reference with nothing stored; other placeholders (`${input:id}`)
 * are left as is with a warning.
 */
export function interpolateEnv(value: string, options: InterpolateEnvOptions): string {
  if (!value.includes('${')) return value;
  return value.replace(placeholderPattern, (placeholder, body: string) => {
    const withDefault = /^([A-Za-z_][A-Za-z0-9_]*):-(.*)$/s.exec(body);
    if (withDefault) {
      const found = lookup(withDefault[1]!, options);
      // Shell semantics: `:-` applies to unset and to empty variables alike.
      return found === undefined || found === '' ? withDefault[2]! : found;
    }
    const reference = options.vault === undefined ? null : vaultReferencePattern.exec(body);
    if (reference) {
      const found = options.vault!(reference[1]!, reference[2]!);
      if (found === undefined)
        throw configError(
          options.location,
          `the secret ${reference[1]}/${reference[2]} is not in the secret vault (give it again: mcptools add … --as ${reference[1]})`,
        );
      options.onValue?.(found);
      return found;
    }
    const name = body.startsWith('env:') ? body.slice(4) : body;
    if (variableName.test(name)) {
      const found = body.startsWith('env:') ? fromEnv(name, options) : lookup(name, options);
      if (found === undefined) {
        throw configError(
          options.location,
          `environment variable ${JSON.stringify(name)} is not set (write \${${name}:-default} to give a default)`,
          { data: { variable: name } },
        );
      }
      return found;
    }
    options.warn?.(
      `${describeConfigLocation(options.location)}: placeholder ${placeholder} is not supported and is left as is`,
    );
    return placeholder;
  });
}

function lookup(name: string, options: InterpolateEnvOptions): string | undefined {
  return options.variables?.[name] ?? fromEnv(name, options);
}

function fromEnv(name: string, options: InterpolateEnvOptions): string | undefined {
  const value = options.env[name];
  if (value !== undefined && value !== '') options.onValue?.(value);
  return value;
}
