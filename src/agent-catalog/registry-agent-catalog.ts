import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { findCatalogEntry, searchCatalogs } from '../catalog/catalog-lookup.js';
import type { CatalogInput, CatalogKeyValue, CatalogRemote } from '../catalog/catalog-records.js';
import type { CatalogSource } from '../catalog/catalog-source.js';
import { catalogStatus, catalogStatusMessage, checkCatalogStatus } from '../catalog/catalog-status.js';
import type { HttpServerConfig } from '../config/config-types.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { jsoncServersDocument } from '../hosts/jsonc-servers-document.js';
import type { ServersDocument } from '../hosts/servers-document.js';
import type { AddServerOutcome, AddServerRequest, AgentCatalog, CatalogVariable } from './agent-catalog.js';

/** `{name}` placeholders of a registry template (a URL or a header value). */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

type RemoteWithVariables = CatalogRemote & { variables?: Record<string, CatalogInput> };

/** The remote an entry is made from: the first Streamable HTTP one, else the first SSE one. */
function pickRemote(remotes: readonly CatalogRemote[] | undefined): RemoteWithVariables | undefined {
  return (remotes?.find((remote) => remote.type === 'streamable-http') ?? remotes?.[0]) as
    | RemoteWithVariables
    | undefined;
}

const placeholders = (template: string) => [...template.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');

/** The values a remote needs: its URL's variables and its headers' (or the header itself when it has no value). */
function remoteVariables(remote: RemoteWithVariables): CatalogVariable[] {
  const found: CatalogVariable[] = [];
  const input = (
    name: string,
    where: CatalogVariable['where'],
    spec: CatalogInput | undefined,
    secret = false,
  ) => {
    if (found.some((variable) => variable.name === name)) return;
    found.push({
      name,
      where,
      required: spec?.isRequired ?? false,
      secret: secret || spec?.isSecret === true,
      ...(spec?.description ? { description: spec.description } : {}),
    });
  };
  for (const name of placeholders(remote.url)) input(name, 'url', remote.variables?.[name]);
  for (const header of remote.headers ?? []) {
    if (header.value === undefined) input(header.name, 'header', header);
    else
      for (const name of placeholders(header.value))
        input(name, 'header', header.variables?.[name], header.isSecret === true);
  }
  return found;
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);

/** The headers every value of which is known; a header still missing one is left out. */
function filledHeaders(
  headers: readonly CatalogKeyValue[],
  values: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const header of headers) {
    const value = header.value === undefined ? values[header.name] : fill(header.value, values);
    if (value !== undefined && placeholders(value).length === 0) out[header.name] = value;
  }
  return out;
}

/** The configuration file's server map, opened for an edit that keeps its comments and formatting. */
function openConfig(file: string): ServersDocument {
  return jsoncServersDocument(readFileSync(file, 'utf8'), ['servers'], file);
}

/**
 * The {@link AgentCatalog} of `serve`: searches and resolves in the configuration's registries
 * (in order) and writes the entry into the configuration file `file` (JSON or JSONC: only that
 * entry's text changes, comments stay), replaced through a temporary file. It adds remote servers (their URL and the headers whose values are known);
 * a record that has only packages is refused with what to run instead. A `deleted` record is
 * refused; a `deprecated` one is added with its warning.
 */
export function registryAgentCatalog(sources: readonly CatalogSource[], file: string): AgentCatalog {
  const remoteOf = async (name: string, version: string | undefined) => {
    const { entry } = await findCatalogEntry(sources, name, version ?? 'latest');
    const warning = checkCatalogStatus(entry);
    const remote = pickRemote(entry.server.remotes);
    if (remote === undefined)
      throw new McpToolsError(
        'INVALID_ARGUMENTS',
        `${entry.server.name}@${entry.server.version} has no remote; a person installs its package with mcptools add`,
        { recoverable: false },
      );
    return { entry, remote, warning };
  };
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
      return remoteVariables((await remoteOf(name, version)).remote);
    },
    async add(request: AddServerRequest): Promise<AddServerOutcome> {
      const { entry, remote, warning } = await remoteOf(request.name, request.version);
      const variables = remoteVariables(remote);
      // Secrets never come from the caller: whatever the request holds, they stay to be provided.
      const values = Object.fromEntries(
        Object.entries(request.values).filter(([key]) => !variables.some((v) => v.secret && v.name === key)),
      );
      const needs = variables.filter(
        (variable) => variable.secret || (variable.required && !(variable.name in values)),
      );
      const url = fill(remote.url, values);
      const headers = filledHeaders(remote.headers ?? [], values);
      const server: HttpServerConfig = {
        type: remote.type,
        url,
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
        // Waits for what the person must provide ("needs configuration") rather than failing to connect.
        ...(needs.length > 0 || placeholders(url).length > 0 ? { enabled: false } : {}),
      };
      const name = request.entry ?? entryName(entry.server.name);
      const document = openConfig(file);
      if (Object.hasOwn(document.servers(), name))
        throw new McpToolsError('INVALID_ARGUMENTS', `the configuration already has a server "${name}"`, {
          recoverable: false,
        });
      document.set(name, { ...server });
      const temporary = `${file}.${randomUUID()}.tmp`;
      // The file keeps its permissions (one holding tokens may be owner-only).
      writeFileSync(temporary, document.text(), { mode: statSync(file).mode & 0o777 });
      renameSync(temporary, file);
      return {
        entry: name,
        name: entry.server.name,
        version: entry.server.version,
        needs,
        ...(warning ? { warning } : {}),
      };
    },
    hasEntry(name) {
      return Object.hasOwn(openConfig(file).servers(), name);
    },
    entryFor: entryName,
  };
}

/** The entry name for a registry name: its part after the slash, in the characters an entry may use. */
function entryName(name: string): string {
  const last = name.slice(name.lastIndexOf('/') + 1);
  return last.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 64) || 'server';
}
