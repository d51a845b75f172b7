import { interpolateEnv } from '../config/interpolate-env.js';
import { isPlainObject } from '../json/is-plain-object.js';
import { type CatalogSource, catalogSources } from './catalog-source.js';
import { readConfigJson } from './config-file-entries.js';

/**
 * The registries a command reads for the `mcptools.json` at `configFile`: its `registries[]`
 * (`url` and header values through the configuration's `${VAR}` rule, an unset variable an error
 * naming the file and field), `MCPTOOLS_REGISTRY` over them for one run, the official registry
 * when neither is set. The servers of the file are not read, so a server's unset variable does
 * not stop a search.
 */
export function configuredSources(
  configFile: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): CatalogSource[] {
  if (env.MCPTOOLS_REGISTRY?.trim()) return catalogSources(undefined, env);
  const listed = readConfigJson(configFile).registries;
  if (!Array.isArray(listed)) return catalogSources(undefined, env);
  const sources = listed.filter(isPlainObject).map((source, index): CatalogSource => {
    const at = (field: string) => ({ file: configFile, field: `registries.${index}.${field}` });
    const url = interpolateEnv(String(source.url ?? ''), { env, location: at('url') });
    const headers: Record<string, string> = {};
    if (isPlainObject(source.headers))
      for (const [name, value] of Object.entries(source.headers))
        headers[name] = interpolateEnv(String(value), { env, location: at(`headers.${name}`) });
    return Object.keys(headers).length > 0 ? { url, headers } : { url };
  });
  return catalogSources(sources, env);
}
