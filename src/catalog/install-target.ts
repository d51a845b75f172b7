import type { CatalogPackage, CatalogRemote, CatalogServer } from './catalog-records.js';

/** One way to run a server: a package started over stdio, or a remote reached over HTTP. */
export type InstallTarget =
  | { kind: 'package'; pkg: CatalogPackage }
  | { kind: 'remote'; remote: CatalogRemote };

/** The package types mcptools installs, in the order it prefers them. */
export const PACKAGE_TYPES = ['npm', 'pypi', 'oci', 'nuget', 'mcpb'] as const;

/** The program a package type runs with (`node` runs an MCPB bundle's Node server). */
export const RUNTIME_OF: Record<(typeof PACKAGE_TYPES)[number], string> = {
  npm: 'npm',
  pypi: 'uvx',
  oci: 'docker',
  nuget: 'dnx',
  mcpb: 'node',
};

/** What a target is called in messages and in `--use`: its package type, or `remote`. */
export function targetType(target: InstallTarget): string {
  return target.kind === 'remote' ? 'remote' : target.pkg.registryType;
}

/** The runtime a target needs on this machine (`undefined` for a remote). */
export function targetRuntime(target: InstallTarget): string | undefined {
  if (target.kind === 'remote') return undefined;
  return RUNTIME_OF[target.pkg.registryType as keyof typeof RUNTIME_OF];
}

/**
 * Every target of a record that mcptools can install: stdio packages of a known type (in
 * {@link PACKAGE_TYPES} order), then remotes.
 */
export function installTargets(server: CatalogServer): InstallTarget[] {
  const packages = (server.packages ?? [])
    .filter(
      (pkg) =>
        pkg.transport.type === 'stdio' && (PACKAGE_TYPES as readonly string[]).includes(pkg.registryType),
    )
    .sort(
      (a, b) =>
        PACKAGE_TYPES.indexOf(a.registryType as (typeof PACKAGE_TYPES)[number]) -
        PACKAGE_TYPES.indexOf(b.registryType as (typeof PACKAGE_TYPES)[number]),
    )
    .map((pkg): InstallTarget => ({ kind: 'package', pkg }));
  const remotes = (server.remotes ?? []).map((remote): InstallTarget => ({ kind: 'remote', remote }));
  return [...packages, ...remotes];
}

/**
 * The target to install: the one of type `use` when asked for, else the first whose runtime
 * this machine has (`canRun`), else the first of all with `runnable: false` (its entry is
 * written; it starts once the runtime is installed). `undefined` when the record has no target.
 */
export function chooseTarget(
  server: CatalogServer,
  canRun: (runtime: string) => boolean,
  use?: string,
): { target: InstallTarget; runnable: boolean } | undefined {
  const targets = installTargets(server).filter((target) => use === undefined || targetType(target) === use);
  const runnable = targets.find((target) => {
    const runtime = targetRuntime(target);
    return runtime === undefined || canRun(runtime);
  });
  if (runnable !== undefined) return { target: runnable, runnable: true };
  return targets[0] === undefined ? undefined : { target: targets[0], runnable: false };
}
