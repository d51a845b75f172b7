import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { McpToolsError } from '../errors/mcp-tools-error.js';

/** The command an MCPB bundle's manifest says runs its server, with `${__dirname}` resolved. */
export interface BundleCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The folder the bundle was unpacked into. */
  dir: string;
  /** The manifest's `user_config`: what the person configures, referred to as `${user_config.<key>}`. */
  userConfig: Record<string, BundleUserConfig>;
}

/** One `user_config` field of an MCPB manifest. */
export interface BundleUserConfig {
  type?: string;
  title?: string;
  description?: string;
  required?: boolean;
  /** A secret (an API key): kept in the vault. */
  sensitive?: boolean;
  default?: unknown;
}

/** The largest bundle downloaded (a server with its node_modules is tens of MiB). */
const MAX_BUNDLE_BYTES = 512 * 1024 * 1024;

/** Where a verified bundle file is kept: `<bundlesDir>/<sha256>.mcpb`. */
export function bundleFile(bundlesDir: string, sha256: string): string {
  return join(bundlesDir, `${sha256}.mcpb`);
}

/**
 * Downloads the MCPB bundle at `url` and keeps it only if its SHA-256 is `fileSha256` (the
 * registry record's): a file that differs is refused before anything of it is unpacked or run,
 * with both hashes named. Only https URLs are fetched, and http on loopback.
 */
export async function downloadBundle(url: string, fileSha256: string, bundlesDir: string): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new McpToolsError('CONFIG_INVALID', `the MCPB bundle URL ${JSON.stringify(url)} is not a URL`);
  }
  const loopback = ['127.0.0.1', '[::1]', 'localhost'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback))
    throw new McpToolsError('PERMISSION_DENIED', `the MCPB bundle ${url} is not on https; not downloaded`, {
      recoverable: false,
    });
  const response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(5 * 60_000) });
  if (!response.ok) {
    await response.body?.cancel();
    throw new McpToolsError('UPSTREAM_ERROR', `the MCPB bundle ${url} answered HTTP ${response.status}`);
  }
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > MAX_BUNDLE_BYTES)
    throw new McpToolsError(
      'UPSTREAM_ERROR',
      `the MCPB bundle ${url} has more than ${MAX_BUNDLE_BYTES} bytes`,
    );
  const bytes = Buffer.from(await response.arrayBuffer());
  const got = createHash('sha256').update(bytes).digest('hex');
  if (got !== fileSha256)
    throw new McpToolsError(
      'PERMISSION_DENIED',
      `the MCPB bundle ${url} has SHA-256 ${got}, but its registry record says ${fileSha256}; refused before anything of it ran`,
      { recoverable: false, data: { expected: fileSha256, got } },
    );
  const file = bundleFile(bundlesDir, fileSha256);
  await mkdir(bundlesDir, { recursive: true, mode: 0o700 });
  await writeFile(`${file}.tmp`, bytes, { mode: 0o600 });
  await rename(`${file}.tmp`, file);
  return file;
}

/**
 * Unpacks the kept bundle of `fileSha256` into `<bundlesDir>/<sha256>/` after checking its hash
 * again (a file changed on disk is refused, naming both hashes), writing every file from the
 * verified archive so an edited unpacked file is replaced; returns the command its
 * `manifest.json` declares. Entries that would land outside the folder are refused.
 */
export async function unpackBundle(fileSha256: string, bundlesDir: string): Promise<BundleCommand> {
  const file = bundleFile(bundlesDir, fileSha256);
  const bytes = readFileSync(file);
  const got = createHash('sha256').update(bytes).digest('hex');
  if (got !== fileSha256)
    throw new McpToolsError(
      'PERMISSION_DENIED',
      `the MCPB bundle ${file} has SHA-256 ${got}, but mcptools-lock.json locks ${fileSha256}; not started`,
      { recoverable: false, data: { expected: fileSha256, got } },
    );
  const { unzipSync } = await import('fflate');
  const files = unzipSync(new Uint8Array(bytes));
  const dir = join(bundlesDir, fileSha256);
  for (const [name, content] of Object.entries(files)) {
    if (name.endsWith('/')) continue;
    const target = normalize(join(dir, name));
    if (isAbsolute(name) || !target.startsWith(dir + sep))
      throw new McpToolsError(
        'PERMISSION_DENIED',
        `the MCPB bundle ${file} holds a path outside its folder (${name})`,
      );
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await writeFile(target, content, { mode: 0o700 });
  }
  let manifest: {
    server?: { mcp_config?: { command?: unknown; args?: unknown; env?: unknown } };
    user_config?: unknown;
  };
  try {
    manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  } catch {
    throw new McpToolsError('CONFIG_INVALID', `the MCPB bundle ${file} has no readable manifest.json`);
  }
  const config = manifest.server?.mcp_config;
  if (typeof config?.command !== 'string')
    throw new McpToolsError(
      'CONFIG_INVALID',
      `the MCPB bundle ${file}: manifest.json has no server.mcp_config.command`,
    );
  const expand = (value: string) => value.replaceAll('${__dirname}', dir);
  const args = Array.isArray(config.args)
    ? config.args.filter((arg) => typeof arg === 'string').map(expand)
    : [];
  const env: Record<string, string> = {};
  if (typeof config.env === 'object' && config.env !== null)
    for (const [key, value] of Object.entries(config.env))
      if (typeof value === 'string') env[key] = expand(value);
  const userConfig: Record<string, BundleUserConfig> = {};
  if (typeof manifest.user_config === 'object' && manifest.user_config !== null)
    for (const [key, field] of Object.entries(manifest.user_config))
      if (/^[A-Za-z0-9_.-]+$/.test(key) && typeof field === 'object' && field !== null)
        userConfig[key] = field as BundleUserConfig;
  return { command: expand(config.command), args, env, dir, userConfig };
}
