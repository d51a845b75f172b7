import { vaultReference } from '../config/vault-reference.js';
import type { CatalogArgument, CatalogInput, CatalogKeyValue } from './catalog-records.js';
import type { InstallTarget } from './install-target.js';
import type { BundleCommand } from './mcpb-bundle.js';
import { argumentKey, bundleInputs, type InputSlot, inputsOf } from './server-inputs.js';

/** A server entry ready to write, and what goes elsewhere. */
export interface BuiltEntry {
  /** The entry as written in `mcptools.json`. */
  server: Record<string, unknown>;
  /** Secret values by key, for the secret vault only. */
  secrets: Record<string, string>;
  /** Every value by key as written in the entry (a vault reference for a secret), for the lock. */
  inputs: Record<string, string>;
}

/** What the package's own place in the command line is, when it was resolved. */
export interface BuildContext {
  /** The image reference with its digest (OCI). */
  image?: string;
  /** The unpacked bundle's command (MCPB). */
  bundle?: BundleCommand;
}

const isReference = (value: string) => value.startsWith('${vault:');

/**
 * The `mcptools.json` entry named `entryName` that runs `target` with `values` (by input key):
 * npm through `npx -y <id>@<version>`, PyPI through `uvx <id>==<version>`, NuGet through
 * `dnx <id>@<version> --yes`, OCI through `docker run -i --rm <image>@<digest>` (environment
 * passed by name, never on the command line), MCPB through its manifest's command, a remote as its
 * URL and headers. A value its registry marks secret is written as `${vault:<entry>/<key>}` and
 * returned in `secrets`; a value left out that the record marks optional is left out of the entry.
 */
export function buildEntry(
  entryName: string,
  target: InstallTarget,
  values: Readonly<Record<string, string>>,
  context: BuildContext = {},
): BuiltEntry {
  // A bundle's `user_config` inputs too: a sensitive one must be known as secret here.
  const slots = new Map(
    [...inputsOf(target), ...bundleInputs(context.bundle?.userConfig ?? {})].map(
      (slot) => [slot.key, slot] as const,
    ),
  );
  const secrets: Record<string, string> = {};
  const inputs: Record<string, string> = {};
  const render = (key: string): string | undefined => {
    const slot: InputSlot | undefined = slots.get(key);
    const value = values[key] ?? slot?.default;
    if (value === undefined) return undefined;
    if (slot?.secret && !isReference(value)) {
      secrets[key] = value;
      inputs[key] = vaultReference(entryName, key);
    } else inputs[key] = value;
    return inputs[key];
  };
  /**
   * A value of the record: fixed, a template over variables, or the input itself. A template
   * with a variable left without a value is left out whole (never a literal `{name}`).
   */
  const recordValue = (key: string, input: CatalogInput): string | undefined => {
    if (input.value === undefined) return render(key);
    let complete = true;
    const filled = input.value.replace(/\{([A-Za-z0-9_.-]+)\}/g, (_whole, name: string) => {
      const value = render(name);
      if (value === undefined) complete = false;
      return value ?? '';
    });
    return complete ? filled : undefined;
  };
  if (target.kind === 'remote') {
    const { remote } = target;
    const headers: Record<string, string> = {};
    for (const header of remote.headers ?? []) {
      const value = recordValue(header.name, header as CatalogKeyValue);
      if (value !== undefined) headers[header.name] = value;
    }
    const url = remote.url.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) => render(name) ?? whole);
    return {
      server: { type: remote.type, url, ...(Object.keys(headers).length > 0 ? { headers } : {}) },
      secrets,
      inputs,
    };
  }
  const { pkg } = target;
  const argv = (list: CatalogArgument[] | undefined, offset: number): string[] => {
    const out: string[] = [];
    (list ?? []).forEach((argument, index) => {
      const value = recordValue(argumentKey(argument, offset + index), argument);
      if (value === undefined) return;
      if (argument.type === 'named') out.push(argument.name, value);
      else out.push(value);
    });
    return out;
  };
  const runtimeArgs = argv(pkg.runtimeArguments, 0);
  const packageArgs = argv(pkg.packageArguments, pkg.runtimeArguments?.length ?? 0);
  const env: Record<string, string> = {};
  for (const variable of pkg.environmentVariables ?? []) {
    const value = recordValue(variable.name, variable);
    if (value !== undefined) env[variable.name] = value;
  }
  const withEnv = (entry: Record<string, unknown>, extraEnv: Record<string, string> = {}) => {
    const merged = { ...extraEnv, ...env };
    return Object.keys(merged).length > 0 ? { ...entry, env: merged } : entry;
  };
  let server: Record<string, unknown>;
  switch (pkg.registryType) {
    case 'npm':
      server = withEnv({
        command: 'npx',
        args: [...runtimeArgs, '-y', `${pkg.identifier}@${pkg.version}`, ...packageArgs],
      });
      break;
    case 'pypi':
      server = withEnv({
        command: 'uvx',
        args: [...runtimeArgs, `${pkg.identifier}==${pkg.version}`, ...packageArgs],
      });
      break;
    case 'nuget':
      server = withEnv({
        command: 'dnx',
        args: [
          ...runtimeArgs,
          `${pkg.identifier}@${pkg.version}`,
          '--yes',
          ...(packageArgs.length > 0 ? ['--', ...packageArgs] : []),
        ],
      });
      break;
    case 'oci': {
      const passEnv = Object.keys(env).flatMap((name) => ['-e', name]);
      server = withEnv({
        command: 'docker',
        args: [
          'run',
          '-i',
          '--rm',
          ...runtimeArgs,
          ...passEnv,
          context.image ?? pkg.identifier,
          ...packageArgs,
        ],
      });
      break;
    }
    case 'mcpb': {
      const bundle = context.bundle;
      // `${user_config.<key>}` of the manifest: the value (a vault reference for a sensitive
      // one); an argument that is only a reference without a value is left out, as MCPB hosts do.
      const USER_CONFIG = /\$\{user_config\.([A-Za-z0-9_.-]+)\}/g;
      const configured = (text: string) =>
        text.replace(USER_CONFIG, (_whole, key: string) => render(key) ?? '');
      const args = (bundle?.args ?? [])
        .filter((arg) => !/^\$\{user_config\.[A-Za-z0-9_.-]+\}$/.test(arg) || configured(arg) !== '')
        .map(configured);
      const bundleEnv: Record<string, string> = {};
      for (const [name, value] of Object.entries(bundle?.env ?? {})) {
        const filled = configured(value);
        if (filled !== '' || value === '') bundleEnv[name] = filled;
      }
      server = withEnv({ command: bundle?.command ?? 'node', args: [...args, ...packageArgs] }, bundleEnv);
      break;
    }
    default:
      server = { command: pkg.identifier };
  }
  return { server, secrets, inputs };
}
