/**
 * Renders a path inside a server entry as the user wrote it: `args[2]`, `headers.Authorization`,
 * with our field names mapped back to the format's own (`url` → `serverUrl` for Windsurf). The
 * longest mapped prefix wins, so `tools.allow[0]` can become `enabled_tools[0]`.
 */
export function displayFieldName(
  path: readonly (string | number)[],
  fieldNames: Readonly<Record<string, string>> = {},
): string | undefined {
  if (path.length === 0) return undefined;
  for (let length = path.length; length > 0; length--) {
    const mapped = fieldNames[join(path.slice(0, length))];
    if (mapped !== undefined) return mapped + join(path.slice(length), true);
  }
  return join(path);
}

function join(path: readonly (string | number)[], continued = false): string {
  return path
    .map((segment, index) => {
      if (typeof segment === 'number') return `[${segment}]`;
      return index === 0 && !continued ? segment : `.${segment}`;
    })
    .join('');
}
