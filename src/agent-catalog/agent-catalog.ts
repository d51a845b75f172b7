/** A server of a registry, as `find_server` shows it to a model. */
export interface CatalogServerSummary {
  name: string;
  version: string;
  description: string;
  status: 'active' | 'deprecated' | 'deleted';
  statusMessage?: string;
  /** What it can run as: package types (`npm`, `pypi`, `oci`, …) and `remote`. */
  kinds: string[];
}

/** A value an entry needs (a header, an environment variable, an argument, a `{name}` inside a URL or value). */
export interface CatalogVariable {
  name: string;
  where: 'header' | 'env' | 'argument' | 'variable';
  required: boolean;
  /** The registry marks it secret: it is never taken from a model. */
  secret: boolean;
  description?: string;
}

/** What `add_server` asks for. */
export interface AddServerRequest {
  /** The registry name (`io.github.owner/server`). */
  name: string;
  /** An exact version; default the latest (resolved: the entry never records `latest`). */
  version?: string;
  /** The entry's name in the configuration. */
  entry?: string;
  /** Values of variables that are not secret. */
  values: Record<string, string>;
}

/** What an add wrote. */
export interface AddServerOutcome {
  entry: string;
  name: string;
  version: string;
  /** What it runs as: its package type (`npm`, `pypi`, `oci`, `nuget`, `mcpb`) or `remote`. */
  kind: string;
  /** The program it runs with when this machine lacks it (`uvx`, `docker`, `dnx`): it starts once installed. */
  runtimeMissing?: string;
  /**
   * Values it still needs from the person (a secret, or a required value not given): the entry
   * is written disabled and waits for them ("needs configuration").
   */
  needs: CatalogVariable[];
  /** The registry's deprecation message, when the version is deprecated. */
  warning?: string;
}

/**
 * What `find_server` and `add_server` need from the catalog: a search, and an add that resolves
 * a version, writes the entry (never a secret) and locks it. The tools decide who may call and
 * what a model may pass; this does the work.
 */
export interface AgentCatalog {
  search(text: string, options: { limit: number; signal?: AbortSignal }): Promise<CatalogServerSummary[]>;
  /** The variables `name` at `version` (default latest) needs, to refuse a secret passed as an argument. */
  variables(name: string, version?: string, signal?: AbortSignal): Promise<CatalogVariable[]>;
  add(request: AddServerRequest, signal?: AbortSignal): Promise<AddServerOutcome>;
  /** Whether the configuration already has an entry of that name. */
  hasEntry(entry: string): boolean;
  /** The entry name an add of `name` would use without `entry`. */
  entryFor(name: string): string;
}
