import type { ErrorInfo } from '../mcp/hub-types.js';

/** System error codes as a person would say them, for the few a newcomer meets first. */
const plainWords: ReadonlyArray<[RegExp, (subject: string) => string]> = [
  [/spawn (\S+) ENOENT/g, (command) => `command "${command}" not found on PATH`],
  [/spawn (\S+) EACCES/g, (command) => `command "${command}" is not executable`],
  [/connect ECONNREFUSED (\S+)/g, (address) => `nothing listens at ${address}`],
  [/getaddrinfo (?:ENOTFOUND|EAI_AGAIN) (\S+)/g, (host) => `the host name ${host} does not resolve`],
];

/**
 * A server's last error as the `servers` table shows it: the code's jargon (`spawn x ENOENT`)
 * in plain words, the rest of the message as it is. `--json` and `doctor` keep the whole message.
 */
export function readableError(error: ErrorInfo): string {
  let text = error.message.split('\n')[0] ?? '';
  for (const [pattern, words] of plainWords)
    text = text.replace(pattern, (_whole, subject: string) => words(subject));
  return text;
}

/**
 * `text` cut to at most `max` characters at a word boundary, with an ellipsis; as it is when it
 * fits. A cut in the middle of a word hides the word a reader searches for.
 */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(' ', max - 1);
  return `${text.slice(0, space > max / 2 ? space : max - 1)}…`;
}
