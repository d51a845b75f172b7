let stripper: Promise<(source: string, onError?: (node: unknown) => void) => string> | undefined;

/**
 * `source` with its TypeScript type syntax replaced by spaces, so every line and column of
 * the JavaScript left is where it was (errors point into the script as written). Plain
 * JavaScript comes back unchanged. Syntax that has no blank-space form (an `enum`, a
 * `namespace` with values, parameter properties) is refused with its position.
 */
export async function stripTypes(source: string): Promise<string> {
  stripper ??= import('ts-blank-space').then((loaded) => loaded.default);
  const strip = await stripper;
  let unsupported: { line: number; column: number } | undefined;
  const stripped = strip(source, (node) => {
    if (unsupported !== undefined) return;
    const start = (node as { getStart?: () => number }).getStart?.() ?? 0;
    const before = source.slice(0, start).split('\n');
    unsupported = { line: before.length, column: before.at(-1)!.length + 1 };
  });
  if (unsupported !== undefined)
    throw new SyntaxError(
      `TypeScript syntax with runtime meaning (enum, namespace, parameter property) is not supported at line ${unsupported.line}, column ${unsupported.column}`,
    );
  return stripped;
}
