import { parseClusterKey } from '../../cluster/cluster-key.js';
import type { ClusterOptions } from '../../cluster/cluster-options.js';
import { McpToolsError } from '../../errors/mcp-tools-error.js';

/** What `mcptools serve` takes for cluster mode. */
export interface ServeClusterFlags {
  cluster?: string;
  advertise?: string;
  replicaId?: string;
}

/**
 * The gateway's cluster options from `--cluster`, `--advertise`, `--replica-id` and
 * `MCPTOOLS_CLUSTER_KEY`, or `undefined` without `--cluster`. Refuses, with the fix in the
 * message, cluster mode over stdio, without a key, or with no way to tell the advertised URL.
 */
export function serveClusterOptions(
  flags: ServeClusterFlags,
  address: { host: string; port: number } | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ClusterOptions | undefined {
  if (flags.cluster === undefined) {
    if (flags.advertise !== undefined || flags.replicaId !== undefined)
      throw new McpToolsError('INVALID_ARGUMENTS', '--advertise and --replica-id need --cluster <redis-url>');
    return undefined;
  }
  if (address === undefined)
    throw new McpToolsError('INVALID_ARGUMENTS', '--cluster needs --http [HOST:]PORT');
  const key = env.MCPTOOLS_CLUSTER_KEY;
  if (!key)
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      'cluster mode needs a shared key: set MCPTOOLS_CLUSTER_KEY to the same 32+ random bytes on every replica (openssl rand -base64 32)',
      { recoverable: false },
    );
  let advertise = flags.advertise;
  if (advertise === undefined) {
    const wildcard = address.host === '0.0.0.0' || address.host === '::';
    if (wildcard || address.port === 0)
      throw new McpToolsError(
        'INVALID_ARGUMENTS',
        '--cluster with a wildcard address or port 0 needs --advertise <url>: how other replicas reach this one',
      );
    const host = address.host.includes(':') ? `[${address.host}]` : address.host;
    advertise = `http://${host}:${address.port}`;
  }
  return {
    redis: flags.cluster,
    // Read now, before any server is started: a short key fails at once.
    key: parseClusterKey(key),
    advertiseUrl: advertise,
    ...(flags.replicaId === undefined ? {} : { replicaId: flags.replicaId }),
  };
}
