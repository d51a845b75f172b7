import type { McpToolsConfig, ServerConfig } from './config-types.js';
import { REDACTED, redactUrl } from './redact-url.js';
import { SecretRedactor } from './secret-redactor.js';
import { isSecretFlag } from './server-secrets.js';

/**
 * A copy of one server entry fit for printing: `env` and `headers` values, auth tokens and keys,
 * URL userinfo and query values, arguments given to secret-looking flags
 * (`--token x`, `--api-key=x`) and values `${VAR}` placeholders took become `***`. Names stay visible so the entry can be checked.
 */
export function redactServer(server: ServerConfig): ServerConfig {
  // `${VAR}` values anywhere else (a positional argument, a URL path) are hidden too.
  const values = SecretRedactor.forServer(server);
  if (server.type === 'stdio') {
    const redacted = { ...server };
    if (server.env) redacted.env = hideValues(server.env);
    if (server.args) redacted.args = values.value(redactArgs(server.args));
    // The locked tree is long and says nothing a reader of the entry needs; the lock file has it.
    if (server.locked?.package.registryType === 'npm') {
      const { modules: _modules, ...summary } = server.locked.package;
      redacted.locked = { ...server.locked, package: { ...summary, modules: {} } };
    }
    return redacted;
  }
  const redacted = { ...server, url: values.text(redactUrl(server.url)) };
  if (server.headers) redacted.headers = hideValues(server.headers);
  if (server.auth?.type === 'bearer') redacted.auth = { type: 'bearer', token: REDACTED };
  if (server.auth?.type === 'api-key') redacted.auth = { ...server.auth, key: REDACTED };
  if (server.auth?.type === 'oauth' && server.auth.clientSecret !== undefined) {
    redacted.auth = { ...server.auth, clientSecret: REDACTED };
  }
  if (server.auth?.type === 'tokenExchange') redacted.auth = { ...server.auth, clientSecret: REDACTED };
  return redacted;
}

/**
 * A copy of a whole configuration with every server passed through {@link redactServer}, and
 * the embeddings endpoint's key, header values and URL secrets, the OTLP endpoint's URL secrets,
 * and the registries' header values and URL secrets, hidden.
 */
export function redactConfig(config: McpToolsConfig): McpToolsConfig {
  const servers = Object.fromEntries(
    Object.entries(config.servers).map(([name, server]) => [name, redactServer(server)]),
  );
  const gateway = redactGateway(config.gateway);
  // A private registry's token travels in its headers or URL.
  const registries = config.registries?.map((source) => ({
    url: redactUrl(source.url),
    ...(source.headers ? { headers: hideValues(source.headers) } : {}),
  }));
  if (registries !== undefined) config = { ...config, registries };
  // An OTLP endpoint may carry a key in its query or userinfo, like any URL.
  const telemetry =
    config.telemetry?.endpoint === undefined
      ? {}
      : { telemetry: { ...config.telemetry, endpoint: redactUrl(config.telemetry.endpoint) } };
  const search = config.router?.semanticSearch;
  if (!search) return { ...config, servers, ...(gateway ? { gateway } : {}), ...telemetry };
  const hidden = { ...search, url: redactUrl(search.url) };
  if (search.apiKey !== undefined) hidden.apiKey = REDACTED;
  if (search.headers) hidden.headers = hideValues(search.headers);
  return {
    ...config,
    servers,
    ...(gateway ? { gateway } : {}),
    ...telemetry,
    router: { ...config.router, semanticSearch: hidden },
  };
}

/** The gateway section with its static tokens and its introspection client secret hidden. */
function redactGateway(gateway: McpToolsConfig['gateway']): McpToolsConfig['gateway'] {
  if (gateway === undefined) return undefined;
  const hidden = { ...gateway };
  if (gateway.tokens)
    hidden.tokens = Object.fromEntries(
      Object.entries(gateway.tokens).map(([name, entry]) => [name, { ...entry, token: REDACTED }]),
    );
  if (gateway.auth?.introspection)
    hidden.auth = {
      ...gateway.auth,
      introspection: { ...gateway.auth.introspection, clientSecret: REDACTED },
    };
  if (gateway.auth?.login?.clientSecret !== undefined)
    hidden.auth = {
      ...(hidden.auth ?? gateway.auth),
      login: { ...gateway.auth.login, clientSecret: REDACTED },
    };
  return hidden;
}

function hideValues(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(map).map((key) => [key, REDACTED]));
}

function redactArgs(args: string[]): string[] {
  return args.map((arg, index) => {
    const previous = index > 0 ? args[index - 1]! : '';
    if (/^-{1,2}[\w.-]+$/.test(previous) && isSecretFlag(previous) && !arg.startsWith('-')) return REDACTED;
    const assignment = /^(-{0,2}[\w.-]+)=/.exec(arg);
    if (assignment && isSecretFlag(assignment[1]!)) return `${assignment[1]}=${REDACTED}`;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) return redactUrl(arg);
    if (/^bearer\s/i.test(arg)) return `Bearer ${REDACTED}`;
    return arg;
  });
}
