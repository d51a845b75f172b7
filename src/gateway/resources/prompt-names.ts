/**
 * Prompt names across servers: `<server><separator><prompt>`, so two servers' `greet` never
 * collide; {@link splitPromptName} finds the server again (the longest server name that
 * prefixes the exposed name wins, so server names may contain the separator).
 */
export function joinPromptName(server: string, prompt: string, separator: string): string {
  return `${server}${separator}${prompt}`;
}

/** The server and prompt behind an exposed prompt name, among `servers`. */
export function splitPromptName(
  name: string,
  servers: string[],
  separator: string,
): { server: string; prompt: string } | undefined {
  let best: string | undefined;
  for (const server of servers) {
    const prefix = `${server}${separator}`;
    if (
      name.startsWith(prefix) &&
      name.length > prefix.length &&
      (best === undefined || server.length > best.length)
    )
      best = server;
  }
  return best === undefined
    ? undefined
    : { server: best, prompt: name.slice(best.length + separator.length) };
}
