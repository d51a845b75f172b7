import { isPlainObject } from '../json/is-plain-object.js';
import type { ConfigReadContext } from './config-read-context.js';
import { interpolateEnv } from './interpolate-env.js';

/**
 * A copy of a raw `mcptools.json` value with `${VAR}` replaced in `router.semanticSearch`'s
 * `url`, `apiKey` and header values, before validation, so a key can live in the
 * environment and a URL built from variables is checked as a URL.
 */
export function interpolateSemanticSearch(
  file: Record<string, unknown>,
  context: ConfigReadContext,
): Record<string, unknown> {
  const router = file.router;
  if (!isPlainObject(router) || !isPlainObject(router.semanticSearch)) return file;
  const search: Record<string, unknown> = { ...router.semanticSearch };
  const interpolate = (value: unknown, path: string[]) => {
    if (typeof value !== 'string') return value;
    const fullPath = ['router', 'semanticSearch', ...path];
    return interpolateEnv(value, {
      env: context.env,
      location: { file: context.file, field: fullPath.join('.'), path: fullPath },
      warn: context.warn,
    });
  };
  for (const key of ['url', 'apiKey']) if (key in search) search[key] = interpolate(search[key], [key]);
  if (isPlainObject(search.headers)) {
    search.headers = Object.fromEntries(
      Object.entries(search.headers).map(([name, value]) => [name, interpolate(value, ['headers', name])]),
    );
  }
  return { ...file, router: { ...router, semanticSearch: search } };
}
