import type { ServerConfig } from './config-types.js';
import type { ConfigValidator, McpToolsFileData, ServerEntryLocation } from './config-validator.js';
import { clampDurationMs } from './duration.js';
import { ACCEPTED_PROTOCOL_VALUES } from './protocol-mode.js';

/**
 * Thrown by {@link quickConfigValidator} without a fallback when a value is not one of the common
 * valid shapes it knows: the caller loads the zod schemas and validates again (`loadConfig` does).
 * Not a configuration error: the value may well be valid.
 */
export class FullValidationNeeded extends Error {
  constructor() {
    super('this configuration needs the full (zod) validation');
    this.name = 'FullValidationNeeded';
  }
}

// A check returns the value as zod would output it, or UNSURE: not known valid (maybe invalid).
const UNSURE = Symbol('unsure');
type Check = (value: unknown) => unknown;

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  // Only own enumerable string keys: nothing zod would see that Object.keys does not.
  return (
    (prototype === Object.prototype || prototype === null) &&
    Reflect.ownKeys(value).length === Object.keys(value).length
  );
}

const text =
  (minLength: number): Check =>
  (value) =>
    typeof value === 'string' && value.length >= minLength ? value : UNSURE;
const literal =
  (...allowed: string[]): Check =>
  (value) =>
    typeof value === 'string' && allowed.includes(value) ? value : UNSURE;
const flag: Check = (value) => (typeof value === 'boolean' ? value : UNSURE);
const integer =
  (min: number, max = Number.MAX_SAFE_INTEGER): Check =>
  (value) =>
    Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max ? value : UNSURE;
// `durationSchema`: a positive finite number, rounded up and clamped to what a timer holds.
const duration: Check = (value) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0
    ? clampDurationMs(Math.ceil(value))
    : UNSURE;
// An http(s) URL with nothing zod would trim or strip (no whitespace, no control characters).
const httpUrl: Check = (value) =>
  typeof value === 'string' && /^https?:\/\/[\x21-\x7e]+$/.test(value) && URL.canParse(value)
    ? value
    : UNSURE;
// Left to zod: rarely used sections with refinements of their own (router, plugins, gateway, OAuth).
const leaveToZod: Check = () => UNSURE;

function list(item: Check): Check {
  return (value) => {
    if (!Array.isArray(value)) return UNSURE;
    const out: unknown[] = [];
    for (const element of value) {
      const checked = item(element);
      if (checked === UNSURE) return UNSURE;
      out.push(checked);
    }
    return out;
  };
}

function record(validKey: (key: string) => boolean, item: Check): Check {
  return (value) => {
    if (!isPlainRecord(value)) return UNSURE;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (key === '__proto__' || !validKey(key)) return UNSURE;
      const checked = item(value[key]);
      if (checked === UNSURE) return UNSURE;
      out[key] = checked;
    }
    return out;
  };
}

/** Like zod's `strictObject`: no unknown key, the output's keys in the shape's order. */
function strictObject(shape: Record<string, Check>, required: readonly string[] = []): Check {
  const keys = Object.keys(shape);
  return (value) => {
    if (!isPlainRecord(value)) return UNSURE;
    for (const key of Object.keys(value)) {
      if (!keys.includes(key) || value[key] === undefined) return UNSURE;
    }
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      if (!Object.hasOwn(value, key)) {
        if (required.includes(key)) return UNSURE;
        continue;
      }
      const checked = shape[key]!(value[key]);
      if (checked === UNSURE) return UNSURE;
      out[key] = checked;
    }
    return out;
  };
}

// The same shapes, in the same key order, as `config-schema.ts` (test/config checks both agree).
const toolFilter = strictObject({ allow: list(text(1)), deny: list(text(1)) });
const serverCommon = {
  enabled: flag,
  connectTimeoutMs: duration,
  callTimeoutMs: duration,
  tools: toolFilter,
  prefix: text(1),
  protocol: literal(...ACCEPTED_PROTOCOL_VALUES),
};
const headers = record(
  (name) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name),
  (value) => (typeof value === 'string' && !/[\r\n\0]/.test(value) ? value : UNSURE),
);
const stdioServer = strictObject(
  {
    type: literal('stdio'),
    command: text(1),
    args: list(text(0)),
    env: record(() => true, text(0)),
    cwd: text(1),
    ...serverCommon,
  },
  ['type', 'command'],
);
const bearerAuth = strictObject({ type: literal('bearer'), token: text(1) }, ['type', 'token']);
const apiKeyAuth = strictObject({ type: literal('api-key'), key: text(1), header: text(1) }, ['type', 'key']);
const httpServer = strictObject(
  {
    type: literal('streamable-http', 'sse', 'http'),
    url: httpUrl,
    headers,
    auth: (value) =>
      isPlainRecord(value) && value.type === 'bearer'
        ? bearerAuth(value)
        : isPlainRecord(value) && value.type === 'api-key'
          ? apiKeyAuth(value)
          : UNSURE,
    ...serverCommon,
  },
  ['type', 'url'],
);
const mcpToolsFile = strictObject(
  {
    $schema: text(0),
    servers: record(
      () => true,
      (value) => value,
    ),
    namespace: strictObject({ separator: text(1), maxLength: integer(8, 1024) }),
    tools: toolFilter,
    router: leaveToZod,
    plugins: leaveToZod,
    maxResultChars: integer(1),
    maxResponseBytes: integer(1),
    maxArgumentBytes: integer(1),
    gateway: leaveToZod,
    telemetry: leaveToZod,
    policies: leaveToZod,
    pins: leaveToZod,
    protocol: serverCommon.protocol,
    workspaceDir: text(1),
    registries: leaveToZod,
  },
  ['servers'],
);

/**
 * A {@link ConfigValidator} that accepts the common valid shapes (stdio and HTTP servers with
 * headers, bearer or API-key auth, filters, timeouts; the plain top-level settings) without
 * loading zod, and returns exactly what the zod schemas return for them. Anything else goes to
 * `fallback` (the zod validator, for its precise messages) or, with none, throws
 * {@link FullValidationNeeded}. Why: importing zod costs about 200 ms, most of the budget of
 * `mcptools config` (≤ 150 ms).
 */
export function quickConfigValidator(fallback?: ConfigValidator): ConfigValidator {
  const unsure = (): never => {
    throw new FullValidationNeeded();
  };
  return {
    mcpToolsFile(value: Record<string, unknown>, file: string): McpToolsFileData {
      const checked = mcpToolsFile(value);
      if (checked !== UNSURE) return checked as McpToolsFileData;
      return fallback ? fallback.mcpToolsFile(value, file) : unsure();
    },
    server(entry: Record<string, unknown>, location: ServerEntryLocation): ServerConfig {
      const checked = (entry.type === 'stdio' ? stdioServer : httpServer)(entry);
      if (checked !== UNSURE) return checked as ServerConfig;
      return fallback ? fallback.server(entry, location) : unsure();
    },
  };
}
