import {
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { TransportAuth } from '../auth/transport-auth.js';
import type { HttpServerConfig, ServerConfig } from '../config/config-types.js';
import { urlBasicCredentials } from '../config/url-basic-credentials.js';
import type { TransportKind } from './provider-types.js';
import { ReusableStdioTransport } from './reusable-stdio-transport.js';
import type { StderrTail } from './stderr-tail.js';

/** The transports worth trying for `config`, in order: `http` tries Streamable HTTP, then SSE. */
export function transportKindsFor(config: ServerConfig): TransportKind[] {
  switch (config.type) {
    case 'stdio':
      return ['stdio'];
    case 'sse':
      return ['sse'];
    case 'streamable-http':
      return ['streamable-http'];
    case 'http':
      return ['streamable-http', 'sse'];
  }
}

function httpHeaders(config: HttpServerConfig, url: URL): Record<string, string> {
  const headers: Record<string, string> = { ...config.headers };
  if (config.auth?.type === 'bearer') headers.Authorization = `Bearer ${config.auth.token}`;
  if (config.auth?.type === 'api-key') headers[config.auth.header ?? 'X-API-Key'] = config.auth.key;
  const basic = urlBasicCredentials(url);
  url.username = '';
  url.password = '';
  const hasAuthorization = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
  if (basic !== undefined && !hasAuthorization) headers.Authorization = `Basic ${basic}`;
  return headers;
}

/**
 * Builds the SDK transport of `kind` for `config`. Stdio children get the SDK's safe default
 * environment plus the configured one, and their stderr piped into `stderr`. HTTP transports get
 * `auth` (OAuth) as their `authProvider` and step-up `fetch`.
 */
export function createTransport(
  config: ServerConfig,
  kind: TransportKind,
  stderr: StderrTail,
  auth?: TransportAuth,
): Transport {
  if (config.type === 'stdio') {
    const transport = new ReusableStdioTransport({
      command: config.command,
      args: config.args ?? [],
      env: { ...getDefaultEnvironment(), ...config.env },
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      stderr: 'pipe',
    });
    stderr.attach(transport.stderr);
    return transport;
  }
  const url = new URL(config.url);
  const requestInit: RequestInit = { headers: httpHeaders(config, url) };
  const oauth =
    auth === undefined
      ? {}
      : { authProvider: auth.authProvider(), ...(auth.fetch ? { fetch: auth.fetch() } : {}) };
  if (kind === 'sse') return new SSEClientTransport(url, { requestInit, ...oauth });
  return new StreamableHTTPClientTransport(url, { requestInit, ...oauth });
}
