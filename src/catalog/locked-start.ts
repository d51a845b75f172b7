import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LockedStart } from '../config/config-types.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { stateDir } from '../paths/state-dir.js';
import type { LockedPackage } from './catalog-lock.js';
import { bundleFile, downloadBundle, unpackBundle } from './mcpb-bundle.js';
import { installNpmTree } from './npm-locked-install.js';
import { missingRuntime } from './package-runtime.js';

/** A stdio server's lock, as the configuration reader attaches it (`StdioServerConfig.locked`). */
export type { LockedStart } from '../config/config-types.js';

/** The command line of a stdio server. */
export interface StdioCommand {
  command: string;
  args: string[];
}

/** What a package start runs, and the folder of the installed package (a box shows it read-only). */
export interface PackageCommand extends StdioCommand {
  packageDir?: string;
}

/** `<state>/packages`: locked npm prefixes and MCPB bundles. */
export function packagesDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), 'packages');
}

/**
 * The command that starts a locked stdio server: the one package runner every stdio start goes
 * through (boxes wrap what it returns). npm: the locked version installed from the locked tree
 * into a prefix of its own and run with this Node, in place of `npx`; MCPB: the kept bundle's hash
 * checked and its files rewritten from it; OCI, PyPI and NuGet: the command line must name the
 * locked digest or version. A command line that names another version than the lock is an error
 * naming both, never a silent upgrade.
 */
export async function lockedCommand(
  locked: LockedStart,
  command: StdioCommand,
  serverName: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<PackageCommand> {
  // The reader attached the lock file's package as written there, which add wrote as a LockedPackage.
  const pkg = locked.package as unknown as LockedPackage;
  const refuse = (configured: string, lockedAs: string): never => {
    throw new McpToolsError(
      'CONFIG_INVALID',
      `server "${serverName}" runs ${configured}, but ${locked.file} locks ${lockedAs}; not started (mcptools update ${serverName} moves both on purpose)`,
      { recoverable: false },
    );
  };
  const named = (prefix: string) => command.args.find((arg) => arg.startsWith(prefix)) ?? command.command;
  switch (pkg.registryType) {
    case 'npm': {
      const spec = `${pkg.identifier}@${pkg.version}`;
      const at = command.args.indexOf(spec);
      if (at < 0) return refuse(named(`${pkg.identifier}@`), `${spec} (${pkg.integrity})`);
      const { prefix, bin } = await installNpmTree(pkg, packagesDir(env), serverName, env);
      return { command: process.execPath, args: [bin, ...command.args.slice(at + 1)], packageDir: prefix };
    }
    case 'mcpb': {
      const dir = packagesDir(env);
      const bundles = join(dir, 'mcpb');
      if (!existsSync(bundleFile(bundles, pkg.fileSha256)))
        await downloadBundle(pkg.identifier, pkg.fileSha256, bundles);
      const unpacked = await unpackBundle(pkg.fileSha256, bundles);
      if (![command.command, ...command.args].some((part) => part.startsWith(unpacked.dir)))
        return refuse(command.args.join(' '), `the bundle ${pkg.fileSha256} in ${unpacked.dir}`);
      return { ...command, packageDir: unpacked.dir };
    }
    case 'oci': {
      const image = command.args.find((arg) => arg.includes('@sha256:'));
      if (image === undefined || !image.endsWith(`@${pkg.digest}`))
        return refuse(image ?? 'an image without a digest', pkg.identifier);
      return command;
    }
    case 'pypi': {
      const spec = `${pkg.identifier}==${pkg.version}`;
      if (!command.args.includes(spec)) return refuse(named(`${pkg.identifier}==`), spec);
      return command;
    }
    case 'nuget': {
      const spec = `${pkg.identifier}@${pkg.version}`;
      if (!command.args.includes(spec)) return refuse(named(`${pkg.identifier}@`), spec);
      // Said here, where the package is known, rather than as a bare "command not found".
      const missing = command.command === 'dnx' ? missingRuntime('dnx', env) : undefined;
      if (missing !== undefined)
        throw new McpToolsError(
          'CONFIG_INVALID',
          `server "${serverName}" runs the NuGet package ${spec} with dnx, and ${missing}`,
          { recoverable: false },
        );
      return command;
    }
    case 'remote':
      return command;
  }
}
