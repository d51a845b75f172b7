import type { Command } from 'commander';
import { configError } from '../../config/config-error.js';
import type { GatewayMode, GatewayProfileConfig, McpToolsConfig } from '../../config/config-types.js';
import type { GatewayOAuthConfig } from '../../config/gateway-auth-types.js';
import { SecretRedactor } from '../../config/secret-redactor.js';
import { applyServeSandboxDefault } from '../../config/serve-sandbox-default.js';
import { McpToolsError } from '../../errors/mcp-tools-error.js';
import { createGateway } from '../../gateway/create-gateway.js';
import { assertBindAllowed } from '../../gateway/http/loopback.js';
import { DEFAULT_LIST_WAIT_MS } from '../../gateway/http/upstreams-ready.js';
import { loadMcpServers } from '../../hub/load-mcp-servers.js';
import { endProcessGroups } from '../../mcp/process-groups.js';
import { ToolRegistry } from '../../pipeline/tool-registry.js';
import type { TelemetryHandle } from '../../telemetry/setup-telemetry.js';
import { builtInBoxGrants } from '../demo/default-config.js';
import { ExitCode } from '../exit-codes.js';
import { formatGatewayBanner } from '../format-gateway-banner.js';
import { type HeldAddress, holdListenAddress } from '../hold-listen-address.js';
import { keepStdoutClean } from '../keep-stdout-clean.js';
import { openSession, type Session } from '../open-session.js';
import { printLine } from '../print.js';
import { pluginReloader } from '../reload-plugins.js';
import { serveCatalogTools } from '../serve-catalog-tools.js';
import { createServeLog, type LogFormat, type ServeLog } from '../serve-log.js';
import { watchServeReloads } from '../serve-reload.js';
import { watchInterrupts } from '../watch-interrupts.js';
import { sessionOptions } from './global-options.js';
import { type ServeClusterFlags, serveClusterOptions } from './serve-cluster-options.js';

/** `--log-format`: `text` (default) or `json`. */
function parseLogFormat(value: string | undefined): LogFormat {
  if (value === undefined || value === 'text' || value === 'json') return value ?? 'text';
  throw new McpToolsError('INVALID_ARGUMENTS', `--log-format must be text or json, got "${value}"`);
}

/**
 * The OpenTelemetry SDK, when the `OTEL_*` variables, the `telemetry` section or `--metrics`
 * ask for it (imported only then: see docs/telemetry.md).
 */
async function startTelemetry(
  config: McpToolsConfig,
  prometheus: boolean,
): Promise<TelemetryHandle | undefined> {
  const asked =
    prometheus ||
    config.telemetry !== undefined ||
    Object.keys(process.env).some((key) => key.startsWith('OTEL_'));
  if (!asked) return undefined;
  const { setupTelemetry } = await import('../../telemetry/setup-telemetry.js');
  const handle = await setupTelemetry(config.telemetry, { prometheus });
  if (handle)
    log(
      `telemetry: traces ${handle.traces ? 'over OTLP' : 'off'}, metrics ${[handle.otlpMetrics ? 'over OTLP' : '', handle.prometheus ? 'at /metrics' : ''].filter(Boolean).join(' and ') || 'off'}`,
    );
  return handle;
}

interface ServeOptions extends ServeClusterFlags {
  config?: string;
  connectTimeout?: number;
  stdio?: boolean;
  http?: string;
  mode?: string;
  profile?: string;
  token?: string;
  oauthIssuer?: string;
  oauthAudience?: string;
  oauthJwksUrl?: string;
  verbose?: boolean;
  metrics?: boolean;
  logFormat?: string;
  watch?: boolean;
  listWait?: number;
}

const MODES: readonly GatewayMode[] = ['full', 'router', 'hybrid'];

/** `[HOST:]PORT` → host and port (`8808`, `0.0.0.0:8808`, `[::1]:8808`). */
export function parseListenAddress(value: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]:|([^:[\]]+):)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[3]) : Number.NaN;
  if (!match || port > 65_535) {
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      `--http expects [HOST:]PORT (e.g. 8808 or 127.0.0.1:8808), got "${value}"`,
    );
  }
  return { host: match[1] ?? match[2] ?? '127.0.0.1', port };
}

/** `--oauth-issuer`, `--oauth-audience`, `--oauth-jwks-url` as the gateway's `auth` option (they override `gateway.auth`). */
function oauthFlags(options: ServeOptions): { auth?: GatewayOAuthConfig } {
  const { oauthIssuer: issuer, oauthAudience: audience, oauthJwksUrl: jwksUrl } = options;
  if (issuer === undefined && audience === undefined && jwksUrl === undefined) return {};
  if (issuer === undefined || audience === undefined)
    throw new McpToolsError('INVALID_ARGUMENTS', '--oauth-issuer and --oauth-audience go together');
  return { auth: { type: 'oauth', issuer, audience, ...(jwksUrl === undefined ? {} : { jwksUrl }) } };
}

/** Where `serve` logs (readable lines until `--log-format` says otherwise). */
let serveLog: ServeLog = createServeLog('text', () => undefined);

function log(line: string): void {
  serveLog.log(line);
}

function profileSettings(config: McpToolsConfig, options: ServeOptions): GatewayProfileConfig {
  let settings: GatewayProfileConfig = config.gateway ?? {};
  if (options.profile !== undefined) {
    const profile = config.gateway?.profiles?.[options.profile];
    if (profile === undefined) {
      const known = Object.keys(config.gateway?.profiles ?? {});
      throw configError(
        { file: config.source ?? 'config', field: `gateway.profiles.${options.profile}` },
        `no such profile; known profiles: ${known.length > 0 ? known.join(', ') : '(none)'}`,
      );
    }
    settings = profile;
  }
  if (options.mode !== undefined) {
    if (!MODES.includes(options.mode as GatewayMode))
      throw new McpToolsError(
        'INVALID_ARGUMENTS',
        `--mode must be one of ${MODES.join(', ')}, got "${options.mode}"`,
      );
    settings = { ...settings, mode: options.mode as GatewayMode };
  }
  return settings;
}

/** One line each time a server's state changes after the start (the start is the banner's). */
function logStateChanges(hub: Session['hub'], write: (line: string) => void): void {
  const states = new Map(hub.status().map((status) => [status.name, status.state]));
  hub.on('status', (status) => {
    if (states.get(status.name) === status.state) return;
    states.set(status.name, status.state);
    const why = status.state === 'error' && status.lastError ? `: ${status.lastError.message}` : '';
    write(`server ${status.name}: ${status.state}${why}`);
  });
}

/**
 * A 2026-07-28 client over stdio sends its requests without waiting for a handshake, so some
 * may be written while the servers still connect. When a signal stops the gateway then, a
 * gateway with no tools answers the requests already written (a call with "the gateway is
 * shutting down") before the process exits, instead of leaving them unanswered.
 */
async function refuseStdioRequests(): Promise<void> {
  const registry = new ToolRegistry();
  const hub = await loadMcpServers({ servers: {} }, registry);
  const gateway = createGateway({ registry, hub, log });
  // close() refuses new calls at once, then reads and answers what is pending before it closes.
  gateway.serveStdio();
  await gateway.close();
  await hub.close();
}

/**
 * Waits for the session's first connect round; `false` when a signal ended it (the stop under
 * way exits the process), and throws any other failure (a plugin that failed to load).
 */
async function connectRound(session: Session): Promise<boolean> {
  try {
    await session.connected;
    return true;
  } catch (error) {
    if (McpToolsError.isInstance(error) && error.code === 'ABORTED') return false;
    throw error;
  }
}

/**
 * Runs `mcptools serve --stdio | --http [HOST:]PORT`: every configured server, plugin and
 * native tool as one MCP server (both protocol eras); without a configuration, the built-in
 * default (what `npm start` serves). Over HTTP it prints the status table, the MCP and status
 * page URLs and how to add it to Claude Code / Claude Desktop; logs go to stderr only.
 * SIGINT/SIGTERM answer calls in flight with an error, close every upstream and exit 0.
 */
export async function serveAction(_options: unknown, command: Command): Promise<void> {
  const options = command.optsWithGlobals<ServeOptions>();
  if (Boolean(options.stdio) === (options.http !== undefined)) {
    throw new McpToolsError('INVALID_ARGUMENTS', 'pass exactly one of --stdio or --http [HOST:]PORT');
  }
  // stdout is the protocol stream over stdio, and logs go to stderr anyway: the SDK and
  // plugins print diagnostics with console.debug/log/info, which Node writes to stdout.
  // The SDK's notes ("… does not advertise …") only with --verbose: the log is for events.
  keepStdoutClean({ debug: options.verbose ? 'stderr' : 'drop' });
  // The port is bound before any server connects, so an entry naming this gateway's own URL
  // is recognised and skipped instead of connected (docs/gateway-recursion.md).
  const held: HeldAddress | undefined =
    options.http === undefined ? undefined : await holdListenAddress(parseListenAddress(options.http));
  const address = held && { host: held.host, port: held.port };
  const token = options.token ?? (process.env.MCPTOOLS_TOKEN || undefined);
  // Watched from the start: a signal while the servers connect aborts the connects and closes
  // what started, instead of killing the process and orphaning them.
  const logFormat = parseLogFormat(options.logFormat);
  let redactor: SecretRedactor | undefined;
  let telemetry: TelemetryHandle | undefined;
  const interrupts = watchInterrupts();
  const signalName = () => (interrupts.exitCode() === ExitCode.interrupted ? 'SIGINT' : 'SIGTERM');
  // At the first signal every stdio upstream's process group gets SIGTERM at once, and SIGKILL
  // 300 ms later: a host that escalates to SIGKILL soon after (or kills this process's group,
  // which the upstreams are not in) leaves none behind. Calls in flight are answered meanwhile.
  let groupsEnded: Promise<void> | undefined;
  interrupts.signal.addEventListener(
    'abort',
    () => {
      groupsEnded = endProcessGroups();
    },
    { once: true },
  );
  // A cluster's replicas share one OAuth vault in Redis (opened first: an unreachable Redis stops here).
  let cluster: ReturnType<typeof serveClusterOptions>;
  let vault:
    | Awaited<ReturnType<typeof import('../../cluster/cluster-vault.js').openClusterVault>>
    | undefined;
  try {
    cluster = serveClusterOptions(options, address);
    vault = cluster
      ? await (await import('../../cluster/cluster-vault.js')).openClusterVault(cluster, log)
      : undefined;
  } catch (error) {
    await held?.release();
    throw error;
  }
  let session: Session;
  try {
    session = await openSession({
      ...sessionOptions(options),
      // Only the project's files (or --config): other hosts' user files are where they register mcptools itself.
      discovery: 'project',
      self: {
        gateway: options.profile === undefined ? {} : { profile: options.profile },
        ...(address ? { listen: [address] } : {}),
      },
      // Declared up front; the gateway routes each to the client whose call caused it.
      requests: { serverRequests: 'routed', ...(vault ? { tokenStore: vault.store } : {}) },
      signal: interrupts.signal,
      // initialize is answered at once, over stdio and HTTP, while the servers connect (Gemini
      // CLI gives a stdio server 5 s to answer initialize); see upstreams-ready.ts for the rest.
      background: true,
      // Telemetry before the first connect, so that connects are traced and counted too.
      beforeConnect: async (config) => {
        // Serve's default box (gateway.sandbox, else a box for every untrusted stdio server), before any server starts.
        applyServeSandboxDefault(config, builtInBoxGrants(config));
        // An unsafe bind is refused before any server starts (or downloads).
        if (address)
          assertBindAllowed(
            address.host,
            token !== undefined ||
              options.oauthIssuer !== undefined ||
              config.gateway?.tokens !== undefined ||
              config.gateway?.auth !== undefined,
          );
        redactor = SecretRedactor.forConfig(config);
        serveLog = createServeLog(logFormat, () => redactor);
        telemetry = await startTelemetry(config, options.metrics === true && address !== undefined);
      },
    });
  } catch (error) {
    await held?.release();
    await vault?.close();
    if (!interrupts.signal.aborted) throw error;
    log(`${signalName()} while connecting; shutting down`);
    if (address === undefined) await refuseStdioRequests();
    await groupsEnded;
    process.exit(0);
  }
  const { config, hub, registry } = session;
  serveLog.close();
  serveLog = createServeLog(
    logFormat,
    () => redactor,
    (tool) => hub.toolOrigin?.(tool)?.server,
  );
  if (options.metrics && address === undefined)
    log('--metrics needs --http (GET /metrics); ignored over stdio');
  hub.on('warning', (message, server) =>
    serveLog.log(server && logFormat === 'text' ? `${server}: ${message}` : message, {
      level: 'warn',
      ...(server ? { server } : {}),
    }),
  );
  logStateChanges(hub, log);
  let gateway: ReturnType<typeof createGateway> | undefined;
  let stopping = false;
  let stopReloads = () => {};
  let reloadError = (): string | undefined => undefined;
  let reloadFromPeer = async () => {};
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    stopReloads();
    log(`${why}; shutting down`);
    await gateway?.close();
    await session.close();
    await vault?.close();
    await telemetry?.shutdown();
    await groupsEnded;
    process.exit(0);
  };
  if (interrupts.signal.aborted) void stop(signalName());
  else interrupts.signal.addEventListener('abort', () => void stop(signalName()), { once: true });
  try {
    gateway = createGateway({
      registry,
      hub,
      config,
      ...profileSettings(config, options),
      ...(token ? { token } : {}),
      ...(cluster ? { cluster } : {}),
      ...oauthFlags(options),
      ...(config.workspaceDir ? { context: { workspaceDir: config.workspaceDir } } : {}),
      ...(telemetry?.prometheus ? { metrics: telemetry.prometheus } : {}),
      ...(config.telemetry?.metricsAccess ? { metricsAccess: config.telemetry.metricsAccess } : {}),
      ...(process.env.MCPTOOLS_SCRAPE_TOKEN ? { scrapeToken: process.env.MCPTOOLS_SCRAPE_TOKEN } : {}),
      ready: session.connected,
      ...(options.listWait === undefined ? {} : { listWaitMs: options.listWait }),
      // Cluster mode: another replica reloaded; this one re-reads its own file (not announced again).
      onPeerReload: (replica) => {
        log(`replica ${replica} reloaded its configuration; reloading ours`);
        void reloadFromPeer();
      },
      notices: () => {
        const refused = reloadError();
        return refused === undefined
          ? []
          : [`configuration reload refused (the running one stays): ${refused}`];
      },
      // "listening on" is this command's to say, once the first connect round is over (below).
      log: (line) => {
        if (!line.startsWith('listening on ')) log(line);
      },
    });
    if (address) {
      // Over HTTP the gateway answers from the start: initialize and whatever needs no upstream
      // at once, a list after the round or `--list-wait`, a call once its server is tried.
      await held?.release();
      const { url } = await gateway.listen(address);
      const connecting = hub.status().filter((status) => status.state === 'connecting').length;
      if (connecting > 0)
        log(
          `answering on ${url} while ${connecting} server(s) connect: initialize now, lists within ${(options.listWait ?? config.gateway?.listWaitMs ?? DEFAULT_LIST_WAIT_MS) / 1000} s (the rest follow as list_changed), calls once their server is up; /readyz is ready after the first connect round`,
        );
      if (!(await connectRound(session))) await new Promise(() => {});
      // "listening on" (what scripts and tests wait for) means: every server was tried.
      const tried = hub.status();
      log(
        `listening on ${url} (${tried.filter((status) => status.state === 'connected').length}/${tried.length} server(s) connected, every one tried)`,
      );
      const statusUrl = new URL('/', url).href;
      const lines = formatGatewayBanner({
        mcpUrl: url,
        statusUrl,
        statuses: hub.status(),
        connectMs: session.connectMs,
      });
      for (const line of lines) printLine(line);
    } else {
      process.stdin.on('end', () => void stop('stdin closed'));
      gateway.serveStdio();
      if (!(await connectRound(session))) await new Promise(() => {});
      const connected = hub.status().filter((status) => status.state === 'connected').length;
      log(`serving ${connected}/${hub.status().length} server(s) over stdio`);
    }
  } catch (error) {
    await held?.release();
    await gateway?.close();
    // A failure while the servers still connect (a refused listen address) closes them once
    // their round is over: closing a connect halfway through its handshake is not clean.
    await session.connected.catch(() => undefined);
    await session.close();
    await vault?.close();
    throw error;
  }
  // SIGHUP (and --watch) re-read the configuration and apply the difference without a restart.
  const reloads = watchServeReloads({
    config,
    hub,
    watchFile: options.watch === true,
    holdChanges: gateway.holdChanges,
    gateway: { reconfigure: gateway.reconfigure, overrides: (next) => profileSettings(next, options) },
    announce: gateway.announceReload,
    plugins: pluginReloader(
      registry,
      session.unloadPlugins,
      (message, level) => serveLog.log(message, { level: level ?? 'info' }),
      session.connected,
    ),
    log: (message, level) => serveLog.log(message, { level: level ?? 'info' }),
  });
  stopReloads = () => reloads.close();
  reloadError = () => reloads.lastError();
  reloadFromPeer = () => reloads.reload({ announce: false });
  // find_server and add_server (router.catalogTools): an added server is applied by a reload.
  serveCatalogTools({
    config,
    hub,
    registry,
    reload: () => reloads.reload(),
    log: (message, level) => serveLog.log(message, { level: level ?? 'info' }),
  });
  // Serve until a signal (or stdin's end) stops the process.
  await new Promise(() => {});
}
