import { McpToolsError } from '../errors/mcp-tools-error.js';
import { isPlainObject } from '../json/is-plain-object.js';
import { type ConfigIssue, configError } from './config-error.js';
import type { ConfigReadContext } from './config-read-context.js';
import { interpolateEnv } from './interpolate-env.js';

/** A field's path inside the file. */
type Field = (string | number)[];

/**
 * A copy of a raw `mcptools.json` value with `${VAR}` and `${VAR:-default}` replaced, before
 * validation, in every setting outside `servers` a secret or an address may be written into:
 * `router.semanticSearch` (`url`, `apiKey`, header values), `gateway.tokens.<name>.token`,
 * `gateway.auth` (`issuer`, `audience`, `jwksUrl`, `introspection.*`), `telemetry.endpoint`,
 * `registries[]` (`url`, header values) and `policies.guards.http` (`url`, header values).
 * Server entries are interpolated by `normalizeServer` with the same rule. Every unset variable
 * is reported at once, naming the file, the field and the variable. In the gateway, telemetry,
 * registries and guards' http sections a value still holding `${` afterwards (`${input:…}`, a
 * typo) is refused: a token compared as its placeholder text would let in whoever read the file.
 */
export function interpolateSettings(
  file: Record<string, unknown>,
  context: ConfigReadContext,
): Record<string, unknown> {
  const issues: ConfigIssue[] = [];
  const unset: { field: string; variable: string }[] = [];
  const interpolate = (value: unknown, path: Field, strict: boolean): unknown => {
    if (typeof value !== 'string') return value;
    const field = path.join('.');
    try {
      const result = interpolateEnv(value, {
        env: context.env,
        location: { file: context.file, field, path },
        warn: strict ? undefined : context.warn,
      });
      if (strict && result.includes('${')) {
        issues.push({
          path,
          message: `holds a placeholder that is not an environment variable (write \${NAME} or \${NAME:-default})`,
        });
      }
      return result;
    } catch (error) {
      const variable = McpToolsError.isInstance(error) ? error.data?.variable : undefined;
      if (typeof variable !== 'string') throw error;
      unset.push({ field, variable });
      issues.push({ path, message: `environment variable ${JSON.stringify(variable)} is not set` });
      return value;
    }
  };
  const copy = { ...file };
  const router = copy.router;
  if (isPlainObject(router) && isPlainObject(router.semanticSearch)) {
    const base = ['router', 'semanticSearch'];
    const search = interpolateKeys(router.semanticSearch, ['url', 'apiKey'], base, interpolate, false);
    if (isPlainObject(search.headers))
      search.headers = interpolateMap(search.headers, [...base, 'headers'], interpolate, false);
    copy.router = { ...router, semanticSearch: search };
  }
  const gateway = copy.gateway;
  if (isPlainObject(gateway)) {
    const next: Record<string, unknown> = { ...gateway };
    if (isPlainObject(gateway.tokens)) {
      next.tokens = Object.fromEntries(
        Object.entries(gateway.tokens).map(([name, entry]) => [
          name,
          isPlainObject(entry)
            ? interpolateKeys(entry, ['token'], ['gateway', 'tokens', name], interpolate, true)
            : entry,
        ]),
      );
    }
    if (isPlainObject(gateway.auth)) {
      const auth = interpolateKeys(
        gateway.auth,
        ['issuer', 'audience', 'jwksUrl'],
        ['gateway', 'auth'],
        interpolate,
        true,
      );
      if (isPlainObject(auth.introspection))
        auth.introspection = interpolateKeys(
          auth.introspection,
          ['url', 'clientId', 'clientSecret'],
          ['gateway', 'auth', 'introspection'],
          interpolate,
          true,
        );
      if (isPlainObject(auth.login))
        auth.login = interpolateKeys(
          auth.login,
          ['clientId', 'clientSecret'],
          ['gateway', 'auth', 'login'],
          interpolate,
          true,
        );
      next.auth = auth;
    }
    copy.gateway = next;
  }
  if (Array.isArray(copy.registries))
    copy.registries = copy.registries.map((source, index) => {
      if (!isPlainObject(source)) return source;
      const base = ['registries', index];
      const next = interpolateKeys(source, ['url'], base, interpolate, true);
      if (isPlainObject(next.headers))
        next.headers = interpolateMap(next.headers, [...base, 'headers'], interpolate, true);
      return next;
    });
  const policies = copy.policies;
  if (isPlainObject(policies) && isPlainObject(policies.guards) && isPlainObject(policies.guards.http)) {
    const base = ['policies', 'guards', 'http'];
    const http = interpolateKeys(policies.guards.http, ['url'], base, interpolate, true);
    if (isPlainObject(http.headers))
      http.headers = interpolateMap(http.headers, [...base, 'headers'], interpolate, true);
    copy.policies = { ...policies, guards: { ...policies.guards, http } };
  }
  if (isPlainObject(copy.telemetry))
    copy.telemetry = interpolateKeys(copy.telemetry, ['endpoint'], ['telemetry'], interpolate, true);
  if (issues.length > 0) throw settingsError(context.file, issues, unset);
  return copy;
}

type Interpolate = (value: unknown, path: Field, strict: boolean) => unknown;

function interpolateKeys(
  section: Record<string, unknown>,
  keys: string[],
  base: Field,
  interpolate: Interpolate,
  strict: boolean,
): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...section };
  for (const key of keys) if (key in copy) copy[key] = interpolate(copy[key], [...base, key], strict);
  return copy;
}

function interpolateMap(
  map: Record<string, unknown>,
  base: Field,
  interpolate: Interpolate,
  strict: boolean,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(map).map(([name, value]) => [name, interpolate(value, [...base, name], strict)]),
  );
}

/** One error for every problem found, the first one in the message and the others after it. */
function settingsError(
  file: string,
  issues: ConfigIssue[],
  unset: { field: string; variable: string }[],
): McpToolsError {
  const [first, ...others] = issues;
  const firstField = first!.path.join('.');
  let message = first!.message;
  if (unset.length > 0 && unset[0]!.field === firstField)
    message += ` (write \${${unset[0]!.variable}:-default} to give a default)`;
  const more = others.map((issue) => `field ${JSON.stringify(issue.path.join('.'))}: ${issue.message}`);
  if (more.length > 0) message += `; also ${more.join('; ')}`;
  return configError({ file, field: firstField, path: first!.path }, message, {
    issues,
    ...(unset.length > 0
      ? { data: { variable: unset[0]!.variable, variables: unset.map((entry) => entry.variable) } }
      : {}),
  });
}
