import { spawn } from 'node:child_process';

/** What this process tells its watchdog: the process groups it would have to end. */
export interface ProcessGroupWatchdog {
  watch(group: number): void;
  forget(group: number): void;
}

/**
 * The watchdog, a POSIX shell script (a shell costs a megabyte where a second Node process
 * costs tens): it reads `+ GROUP` and `- GROUP` lines from its stdin, a pipe from this process.
 * The kernel closes that pipe when this process ends in any way, SIGKILL included; at its end
 * the watchdog sends SIGTERM to every group still listed, SIGKILL 300 ms later, and exits.
 * It ignores the signals a terminal or a host sends a process tree: only the pipe's end stops it.
 */
const SCRIPT = `trap '' HUP INT TERM
groups=' '
while read -r change group; do
  case $group in ''|*[!0-9]*) continue ;; esac
  case $change in
    +) groups="$groups$group " ;;
    -) case $groups in *" $group "*) groups="\${groups%% $group *} \${groups#* $group }" ;; esac ;;
  esac
done
[ "$groups" = ' ' ] && exit 0
for group in $groups; do kill -s TERM -- "-$group" 2>/dev/null; done
sleep 0.3
for group in $groups; do kill -s KILL -- "-$group" 2>/dev/null; done
exit 0
`;

/**
 * Starts the watchdog that ends this process's child process groups when this process dies
 * without ending them (SIGKILL, a crash). It runs detached, in a session of its own, so that
 * a signal to this process's group does not take it down before it has done its work; it
 * holds no reference on this process's event loop. A watchdog that cannot start (no `/bin/sh`)
 * leaves the groups to the graceful path alone.
 */
export function startProcessGroupWatchdog(): ProcessGroupWatchdog {
  const child = spawn('/bin/sh', ['-c', SCRIPT], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  child.on('error', () => {});
  const stdin = child.stdin;
  // A watchdog that exited (or never started) makes writes fail: they are dropped.
  stdin?.on('error', () => {});
  child.unref();
  (stdin as unknown as { unref?: () => void } | null)?.unref?.();
  const write = (line: string) => {
    if (stdin?.writable) stdin.write(line);
  };
  return {
    watch: (group) => write(`+ ${group}\n`),
    forget: (group) => write(`- ${group}\n`),
  };
}
