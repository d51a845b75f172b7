/**
 * Keeps stdout for the command's own output (`--json` prints one document and nothing else;
 * `serve --stdio` speaks the protocol there): libraries' console.log/info go to stderr, and
 * console.debug (the SDK's "server does not advertise …" notes) is dropped unless `debug` is
 * `'stderr'`.
 */
export function keepStdoutClean(options: { debug?: 'drop' | 'stderr' } = {}): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = options.debug === 'stderr' ? toStderr : () => {};
}
