import type { McpToolHub } from '../mcp/hub-types.js';
import { type RouterError, routerError, routerErrorType } from './error-taxonomy.js';

/**
 * Why `server` cannot answer right now, or `undefined` when it is connected. An unknown
 * name lists the configured servers; a disconnected one carries its last error (it fails
 * fast instead of waiting for a timeout).
 */
export function serverProblem(hub: McpToolHub, server: string): RouterError | undefined {
  const status = hub.status(server);
  if (!status) {
    const known = hub.servers();
    return routerError(
      'CONNECTION_FAILED',
      `unknown server "${server}"; configured servers: ${known.length > 0 ? known.join(', ') : '(none)'}`,
      false,
    );
  }
  if (status.state === 'connected') return undefined;
  if (status.state === 'disabled') {
    return routerError('CONNECTION_FAILED', `server "${server}" is disabled in the configuration`, false);
  }
  if (status.state === 'skipped')
    return routerError(
      'CONNECTION_FAILED',
      `server "${server}" was ${status.lastError?.message ?? 'skipped'}`,
      false,
    );
  const reason = status.lastError ? `: ${status.lastError.message}` : '';
  const error = routerError('CONNECTION_FAILED', `server "${server}" is ${status.state}${reason}`);
  // A server that timed out while connecting is reported as a Timeout, the more precise type.
  if (status.lastError?.code === 'TIMEOUT')
    return { ...error, type: routerErrorType('TIMEOUT'), code: 'TIMEOUT' };
  return error;
}

/** Servers a call without `server` covers: every configured server that is not disabled or skipped. */
export function activeServers(hub: McpToolHub): string[] {
  return hub.servers().filter((server) => {
    const state = hub.status(server)?.state;
    return state !== 'disabled' && state !== 'skipped';
  });
}
