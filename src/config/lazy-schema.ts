/**
 * Memoises the zod schema `build` returns: the configuration's schemas are built on first use,
 * not when `mcptools` is imported. The quick validator accepts the common valid shapes without
 * them, so most processes never build them (about 2 MiB of RSS at import when built eagerly).
 */
export function lazySchema<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => {
    built ??= build();
    return built;
  };
}
