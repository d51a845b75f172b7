import { execFile } from 'node:child_process';

/** What an npm run printed, and whether it succeeded. */
export interface NpmRun {
  ok: boolean;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm <args>` in `cwd` without a shell (the arguments are never parsed as a command line),
 * with its output collected. npm is looked up on `PATH` as the user's own would be.
 */
export function runNpm(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<NpmRun> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return new Promise((resolve) => {
    execFile(
      npm,
      args,
      { cwd, env, maxBuffer: 32 * 1024 * 1024, timeout: 10 * 60_000, shell: process.platform === 'win32' },
      (error, stdout, stderr) =>
        resolve({ ok: error === null, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}
