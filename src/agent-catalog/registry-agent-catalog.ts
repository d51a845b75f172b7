import { applyAdd, defaultEntryName, missingInputs, planAdd } from '../catalog/add-server.js';
import { searchCatalogs } from '../catalog/catalog-lookup.js';
import type { CatalogSource } from '../catalog/catalog-source.js';
import { catalogStatus, catalogStatusMessage } from '../catalog/catalog-status.js';
import { readConfigJson } from '../catalog/config-file-entries.js';
import { targetType } from '../catalog/install-target.js';
import type { InputSlot } from '../catalog/server-inputs.js';
import type { AddServerOutcome, AddServerRequest, AgentCatalog, CatalogVariable } from './agent-catalog.js';

/** What {@link registryAgentCatalog} needs beside the registries and the file. */
export interface RegistryAgentCatalogOptions {
  /** Whether this machine has a runtime (`npm`, `uvx`, `docker`, `dnx`, `node`). */
  canRun: (runtime: string) => boolean;
  /** The environment: state folder (packages, vault), vault key, npm's settings. */
  env?: NodeJS.ProcessEnv;
}

const variableOf = (slot: InputSlot): CatalogVariable => ({
  name: slot.key,
  where: slot.kind,
  required: slot.required && slot.default === undefined,
  secret: slot.secret,
  ...(slot.description ? { description: slot.description } : {}),
});

/** The spec `planAdd` reads: `name` or `name@version`. */
const specOf = (name: string, version: string | undefined) => (version ? `${name}@${version}` : name);

/**
 * The {@link AgentCatalog} of `serve`: searches and resolves in the configuration's registries
 * (in order) and adds exactly as `mcptools add` does (the same plan, install, lock file and
 * vault): an npm, PyPI, OCI, NuGet or MCPB package or a remote, chosen as the CLI chooses, its
 * version resolved and its integrity locked in `mcptools-lock.json` beside `file`. Only the
 * entry's text of `file` changes (JSON or JSONC; comments stay). A value the registry marks
 * secret is never taken from the request: an entry still missing one (or any required value) is
 * written disabled and waits for the person, who provides it with `mcptools add` into the vault.
 * A `deleted` record is refused; a `deprecated` one is added with its warning.
 */
export function registryAgentCatalog(
  sources: readonly CatalogSource[],
  file: string,
  options: RegistryAgentCatalogOptions,
): AgentCatalog {
  const env = options.env ?? process.env;
  const plan = (name: string, version: string | undefined, entry?: string) =>
    planAdd({
      spec: specOf(name, version),
      sources,
      canRun: options.canRun,
      ...(entry ? { as: entry } : {}),
    });
  return {
    async search(text, { limit }) {
      const found = await searchCatalogs(sources, text, { limit });
      return found.slice(0, limit).map(({ entry }) => {
        const message = catalogStatusMessage(entry);
        return {
          name: entry.server.name,
          version: entry.server.version,
          description: entry.server.description,
          status: catalogStatus(entry),
          ...(message ? { statusMessage: message } : {}),
          kinds: [
            ...new Set([
              ...(entry.server.packages ?? []).map((item) => item.registryType),
              ...((entry.server.remotes ?? []).length > 0 ? ['remote'] : []),
            ]),
          ],
        };
      });
    },
    async variables(name, version) {
      return (await plan(name, version)).inputs.map(variableOf);
    },
    async add(request: AddServerRequest): Promise<AddServerOutcome> {
      const planned = await plan(request.name, request.version, request.entry);
      // Secrets never come from the caller: whatever the request holds, they stay to be provided.
      const values = Object.fromEntries(
        Object.entries(request.values).filter(
          ([key]) => !planned.inputs.some((slot) => slot.secret && slot.key === key),
        ),
      );
      const missing = missingInputs(planned, values);
      const result = await applyAdd(planned, { configFile: file, values, env, waitForInputs: true });
      return {
        entry: result.entry,
        name: result.lock.name,
        version: result.lock.version,
        kind: targetType(planned.target),
        ...(!planned.runnable && planned.runtime ? { runtimeMissing: planned.runtime } : {}),
        needs: missing.map(variableOf),
        ...(planned.warning ? { warning: planned.warning } : {}),
      };
    },
    hasEntry(name) {
      return Object.hasOwn(readConfigJson(file).servers, name);
    },
    entryFor: (name) => defaultEntryName(name).slice(0, 64) || 'server',
  };
}
