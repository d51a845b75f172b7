import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where and for which platform {@link findOnPath} looks: this process's by default. */
export interface PathLookup {
  /** The folder a relative path is resolved against. */
  cwd?: string;
  /** Whose `PATH` (and `PATHEXT`) is searched. */
  env?: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
}

/**
 * Where `command` resolves the way a shell would: a path (absolute or with a slash) as is,
 * relative to `cwd`; a bare name through `PATH` (and `PATHEXT` on Windows). `undefined`
 * when nothing executable is found.
 */
export function findOnPath(
  command: string,
  { cwd = process.cwd(), env = process.env, platform = process.platform }: PathLookup = {},
): string | undefined {
  if (isAbsolute(command) || command.includes('/') || command.includes('\\')) {
    const path = resolve(cwd, command);
    return isExecutableFile(path) ? path : undefined;
  }
  const extensions = platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const extension of extensions) {
      const candidate = join(dir, command + extension);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}
