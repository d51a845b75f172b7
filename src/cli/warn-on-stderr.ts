/**
 * A configuration warning as a `mcptools: warning:` line on stderr, written at once: before the
 * error it may explain (a Node process warning would come after it, with advice about
 * `--trace-warnings` that means nothing to a user).
 */
export function warnOnStderr(message: string): void {
  process.stderr.write(`mcptools: warning: ${message}\n`);
}
