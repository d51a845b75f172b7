import { findOnPath } from '../paths/find-on-path.js';

/** How each runtime a package needs is installed, for the message that says it is missing. */
const INSTALL_HINTS: Record<string, string> = {
  uvx: 'uvx comes with uv (the Python package manager)',
  docker: 'docker is the container runtime OCI images run with',
  dnx: 'dnx is the package runner of the .NET SDK 10 or later (`dotnet`)',
  node: 'node runs MCPB bundles of Node servers',
  npm: 'npm comes with Node.js',
};

/**
 * Why `runtime` cannot run here, in one sentence with how to get it; `undefined` when it is on
 * PATH. For `dnx` it tells an installed `dotnet` too old to have it from no .NET SDK at all.
 */
export function missingRuntime(runtime: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (findOnPath(runtime, { env }) !== undefined) return undefined;
  if (runtime === 'dnx')
    return findOnPath('dotnet', { env }) !== undefined
      ? 'dnx is not on PATH, but dotnet is: dnx comes with the .NET SDK 10 or later (see `dotnet --list-sdks`); install that SDK'
      : 'neither dnx nor dotnet is installed: dnx is the package runner of the .NET SDK 10 or later; install that SDK';
  return `${runtime} is not installed (${INSTALL_HINTS[runtime] ?? 'install it'})`;
}
