import { basename } from 'node:path';

/** The package a runner's command line (`npx`, `npm exec`, `pnpm dlx`, `bunx`) runs, and the server's arguments. */
export interface RunnerCommand {
  /** The runner as the user wrote it (`npx`, `npm exec`, `pnpm dlx`, `bunx`), for messages. */
  runner: string;
  /** The package's name (`@scope/name` or `name`). */
  name: string;
  /** What follows its `@`: an exact version, a range or a tag; `latest` when none is given. */
  range: string;
  /** The executable `--package` names (`npx -p pkg bin …`); unset: the package's own. */
  bin?: string;
  /** The server's arguments, after the package (or the executable). */
  args: string[];
}

/** How one runner's command line is read: the flags it takes that change nothing the package runner follows. */
interface RunnerSyntax {
  runner: string;
  /** Flags without a value that the package runner can ignore (the install is its own either way). */
  plain: ReadonlySet<string>;
  /** The flags that name the package (`--package` and its short form, if any). */
  packageFlags: ReadonlySet<string>;
  /**
   * `true` for `npm exec`: npm reads its own flags anywhere on the line until `--`, so a flag after
   * the package without a `--` before it is npm's, not the server's.
   */
  flagsAnywhere: boolean;
}

const NPX_PLAIN = ['-y', '--yes', '-q', '--quiet', '--silent', '--no-update-notifier'];
const NPX: RunnerSyntax = {
  runner: 'npx',
  plain: new Set(NPX_PLAIN),
  packageFlags: new Set(['-p', '--package']),
  flagsAnywhere: false,
};
const NPM_EXEC: RunnerSyntax = { ...NPX, runner: 'npm exec', flagsAnywhere: true };
const PNPM_DLX: RunnerSyntax = {
  runner: 'pnpm dlx',
  plain: new Set(['-s', '--silent']),
  packageFlags: new Set(['--package']),
  flagsAnywhere: false,
};
const BUNX: RunnerSyntax = {
  runner: 'bunx',
  plain: new Set(['--silent', '--verbose']),
  packageFlags: new Set(['-p', '--package']),
  flagsAnywhere: false,
};

/** A registry package name, scoped or not (lower case, as npm requires of new names). */
const NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/** The runner `command args` starts, and the arguments after its subcommand; `undefined` for any other command. */
function runnerOf(
  command: string,
  args: readonly string[],
): { syntax: RunnerSyntax; rest: readonly string[] } | undefined {
  const program = basename(command);
  if (program === 'npx') return { syntax: NPX, rest: args };
  if (program === 'npm' && (args[0] === 'exec' || args[0] === 'x'))
    return { syntax: NPM_EXEC, rest: args.slice(1) };
  if (program === 'pnpm' && args[0] === 'dlx') return { syntax: PNPM_DLX, rest: args.slice(1) };
  if (program === 'pnpx') return { syntax: PNPM_DLX, rest: args };
  if (program === 'bunx') return { syntax: BUNX, rest: args };
  if (program === 'bun' && args[0] === 'x') return { syntax: BUNX, rest: args.slice(1) };
  return undefined;
}

/**
 * The package `npx [-y] [--package <spec> <bin>] <spec> [args…]`, `npm exec [--yes]
 * [--package=<spec>] [--] <spec> [args…]`, `pnpm dlx [--package <spec>] <spec> [args…]` or
 * `bunx [-p <spec>] <spec> [args…]` runs, or `undefined` when `command` is none of them. A spec
 * that is not a registry name with an optional version, range or tag (a git URL, a tarball, a
 * folder, an `npm:` alias), and a flag the runner's line has that the package runner does not
 * follow (`-c`, `bunx --bun`), give an error message instead: the package runner installs
 * registry packages only, with npm, and runs them with Node.
 */
export function parseRunnerCommand(
  command: string,
  args: readonly string[],
): RunnerCommand | string | undefined {
  const found = runnerOf(command, args);
  if (found === undefined) return undefined;
  const { syntax, rest } = found;
  let packageSpec: string | undefined;
  let dashes = false;
  let at = 0;
  for (; at < rest.length; at++) {
    const arg = rest[at]!;
    if (arg === '--') {
      dashes = true;
      at++;
      break;
    }
    if (!arg.startsWith('-')) break;
    if (syntax.plain.has(arg)) continue;
    if (syntax.packageFlags.has(arg)) {
      packageSpec = rest[++at];
      continue;
    }
    if (arg.startsWith('--package=')) {
      packageSpec = arg.slice('--package='.length);
      continue;
    }
    return `${syntax.runner}'s flag "${arg}" is not one the package runner follows (${usage(syntax)})`;
  }
  const first = rest[at];
  if (first === undefined) return `${syntax.runner} names no package`;
  const serverArgs = rest.slice(at + 1);
  if (syntax.flagsAnywhere && !dashes) {
    const flag = serverArgs.find((arg) => arg.startsWith('-'));
    if (flag !== undefined)
      return `npm exec reads "${flag}" as its own flag, not the server's: put "--" before the package (npm exec -- ${first} …)`;
  }
  const spec = splitSpec(packageSpec ?? first);
  if (spec === undefined)
    return `"${packageSpec ?? first}" is not a registry package name with an optional version (the package runner installs registry packages only)`;
  if (packageSpec !== undefined) return { runner: syntax.runner, ...spec, bin: first, args: serverArgs };
  return { runner: syntax.runner, ...spec, args: serverArgs };
}

/** The command line a runner's entry must have for the package runner to follow it. */
function usage(syntax: RunnerSyntax): string {
  const plain = [...syntax.plain][0];
  const pkg = [...syntax.packageFlags][0];
  return `it runs ${syntax.runner} [${plain}] [${pkg} <spec>] <spec> [args…]`;
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
