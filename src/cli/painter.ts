/** ANSI styles the CLI uses; each returns its text unchanged when colour is off. */
export interface Painter {
  enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
}

/** `true` when `stream` is a colour terminal and `NO_COLOR` is not set (https://no-color.org). */
export function colorEnabled(stream: NodeJS.WriteStream): boolean {
  const noColor = process.env.NO_COLOR;
  if (noColor !== undefined && noColor !== '') return false;
  if (!stream.isTTY) return false;
  return typeof stream.hasColors === 'function' ? stream.hasColors() : true;
}

/** A {@link Painter} for `stream`: colours only on a TTY, never with `NO_COLOR`. */
export function createPainter(stream: NodeJS.WriteStream = process.stdout): Painter {
  const enabled = colorEnabled(stream);
  const style = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    bold: style(1, 22),
    dim: style(2, 22),
    green: style(32, 39),
    red: style(31, 39),
    yellow: style(33, 39),
  };
}
