import { type ConfigErrorLocation, configError, describeConfigLocation } from './config-error.js';

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
  /** Receives each value taken from `env`, so that it can be redacted later. */
  onValue?: (value: string) => void;
}

const placeholderPattern = /\$\{([^{}]*)\}/g;
const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Replaces `${VAR}`, `${VAR:-default}` and `${env:VAR}` in one configured string. An unset
 * variable without a default throws `CONFIG_INVALID` naming the file, server, field and the
 * variable (never its value); other placeholders (`${input:id}`) are left as is with a warning.
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
