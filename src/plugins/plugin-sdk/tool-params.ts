/**
 * Parameter readers of OpenClaw's `openclaw/plugin-sdk` (`readStringParam`, …), written
 * for plugins loaded without an OpenClaw install. They throw {@link ToolInputError}; the
 * loader turns that into an `isError` result.
 */

/** Thrown by the readers when a parameter is missing or of the wrong type (OpenClaw's class). */
export class ToolInputError extends Error {
  readonly status = 400;
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

/** Options of {@link readStringParam}. */
export interface StringParamOptions {
  required?: boolean;
  trim?: boolean;
  label?: string;
  allowEmpty?: boolean;
}

/** Reads a string parameter: trimmed by default, `undefined` when absent, throws when required. */
export function readStringParam(
  params: Record<string, unknown>,
  key: string,
  options: StringParamOptions = {},
): string | undefined {
  const { required = false, trim = true, label = key, allowEmpty = false } = options;
  const raw = params[key];
  if (typeof raw !== 'string') {
    if (required) throw new ToolInputError(`${label} required`);
    return undefined;
  }
  const value = trim ? raw.trim() : raw;
  if (!value && !allowEmpty) {
    if (required) throw new ToolInputError(`${label} required`);
    return undefined;
  }
  return value;
}

/** Reads a number parameter; numeric strings are accepted, `integer` truncates. */
export function readNumberParam(
  params: Record<string, unknown>,
  key: string,
  options: { required?: boolean; label?: string; integer?: boolean } = {},
): number | undefined {
  const { required = false, label = key, integer = false } = options;
  const raw = params[key];
  let value: number | undefined;
  if (typeof raw === 'number' && Number.isFinite(raw)) value = raw;
  else if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) value = Number(raw);
  if (value === undefined) {
    if (required) throw new ToolInputError(`${label} required`);
    return undefined;
  }
  return integer ? Math.trunc(value) : value;
}

/** Reads a boolean parameter; `"true"`/`"false"` strings are accepted. */
export function readBooleanParam(
  params: Record<string, unknown>,
  key: string,
  options: { required?: boolean; label?: string } = {},
): boolean | undefined {
  const raw = params[key];
  if (typeof raw === 'boolean') return raw;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (options.required) throw new ToolInputError(`${options.label ?? key} required`);
  return undefined;
}

/** Reads an array of strings (a single string becomes a one-element array). */
export function readStringArrayParam(
  params: Record<string, unknown>,
  key: string,
  options: { required?: boolean; label?: string } = {},
): string[] | undefined {
  const raw = params[key];
  const values = Array.isArray(raw)
    ? raw.filter((item): item is string => typeof item === 'string').map((item) => item.trim())
    : typeof raw === 'string'
      ? [raw.trim()]
      : [];
  const kept = values.filter((item) => item.length > 0);
  if (kept.length === 0) {
    if (options.required) throw new ToolInputError(`${options.label ?? key} required`);
    return undefined;
  }
  return kept;
}
