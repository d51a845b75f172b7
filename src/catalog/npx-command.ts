import { basename } from 'node:path';

/** The package an `npx` command line runs, and the rest of its arguments (the server's). */
export interface NpxCommand {
  /** The package's name (`@scope/name` or `name`). */
  name: string;
  /** What follows its `@`: an exact version, a range or a tag; `latest` when none is given. */
  range: string;
  /** The executable `--package` names (`npx -p pkg bin …`); unset: the package's own. */
  bin?: string;
  /** The server's arguments, after the package (or the executable). */
  args: string[];
}

/** npx's flags that take no value and change nothing a package runner has to follow. */
const PLAIN_FLAGS = new Set(['-y', '--yes', '-q', '--quiet', '--silent', '--no-update-notifier']);
/** A registry package name, scoped or not (lower case, as npm requires of new names). */
const NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/**
 * The package `npx [-y|--yes] [--package <spec> <bin>] <spec> [args…]` runs, or `undefined`
 * when `command` is not `npx`. A spec npx takes that is not a registry name with an optional
 * version, range or tag (a git URL, a tarball, a folder, an `npm:` alias), and a flag it does not
 * know (`-c`, `--call`), give an error message instead: the runner installs registry packages only.
 */
export function parseNpxCommand(command: string, args: readonly string[]): NpxCommand | string | undefined {
  if (basename(command) !== 'npx') return undefined;
  let packageSpec: string | undefined;
  let at = 0;
  for (; at < args.length; at++) {
    const arg = args[at]!;
    if (arg === '--') {
      at++;
      break;
    }
    if (!arg.startsWith('-')) break;
    if (PLAIN_FLAGS.has(arg)) continue;
    if (arg === '-p' || arg === '--package') {
      packageSpec = args[++at];
      continue;
    }
    if (arg.startsWith('--package=')) {
      packageSpec = arg.slice('--package='.length);
      continue;
    }
    return `npx's flag "${arg}" is not one the package runner follows (it runs npx [-y] [--package <spec>] <spec> [args…])`;
  }
  const first = args[at];
  if (first === undefined) return 'npx names no package';
  const spec = splitSpec(packageSpec ?? first);
  if (spec === undefined)
    return `"${packageSpec ?? first}" is not a registry package name with an optional version (the package runner installs registry packages only)`;
  if (packageSpec !== undefined) return { ...spec, bin: first, args: args.slice(at + 1) };
  return { ...spec, args: args.slice(at + 1) };
}

/** `@scope/name@range` → name and range (`latest` without one); `undefined` when it is no registry name. */
function splitSpec(spec: string): { name: string; range: string } | undefined {
  const at = spec.indexOf('@', 1);
  const name = at < 0 ? spec : spec.slice(0, at);
  const range = at < 0 ? 'latest' : spec.slice(at + 1);
  if (!NAME.test(name) || range === '' || /[\s/:]/.test(range)) return undefined;
  return { name, range };
}

/** `true` when `range` is one exact version (`1.2.3`, `1.2.3-rc.1`): what it resolves to never changes. */
export function isExactVersion(range: string): boolean {
  return /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.test(range);
}
