import { UriTemplate } from '@modelcontextprotocol/server';
import type { McpToolHub } from '../../mcp/hub-types.js';

/** How many URIs the index remembers per server from tool results and prompt messages. */
export const SEEN_URIS_PER_SERVER = 1000;

/** One listed template: its text as the server gave it, and its matcher (none when it does not parse). */
interface ListedTemplate {
  readonly text: string;
  readonly matcher: UriTemplate | undefined;
}

function matcherOf(text: string): UriTemplate | undefined {
  try {
    return new UriTemplate(text);
  } catch {
    return undefined;
  }
}

/**
 * Which upstream server offers which resource URI, across one gateway: the URIs each server
 * listed, its URI templates (RFC 6570, matched with the SDK's `UriTemplate`), and the URIs its
 * tool results and prompt messages handed out (`resource_link`, embedded resources; the last
 * {@link SEEN_URIS_PER_SERVER} per server). Lists are read lazily, once, and forgotten when the
 * server's list changes or it reconnects ({@link forget}). The index knows nothing of profiles
 * or callers: every question names the servers the asker may see, so a visibility rule composes
 * with it from outside.
 */
export class ResourceIndex {
  readonly #hub: McpToolHub;
  readonly #listed = new Map<string, Promise<ReadonlySet<string>>>();
  readonly #templates = new Map<string, Promise<readonly ListedTemplate[]>>();
  /** Settled lists, read without waiting. */
  readonly #listedNow = new Map<string, ReadonlySet<string>>();
  readonly #templatesNow = new Map<string, readonly ListedTemplate[]>();
  readonly #seen = new Map<string, Map<string, true>>();
  /** Bumped by every listing started and every {@link forget}: a listing overtaken is dropped. */
  readonly #generations = new Map<string, number>();
  readonly #perCaller: (server: string) => boolean;

  /**
   * `perCaller` names the servers each caller reaches with their own credentials: the index
   * never lists those itself (a listing names no caller, and would be refused), and knows their
   * URIs from what was listed to callers and handed out ({@link recordResources}, {@link noteSeen}).
   */
  constructor(hub: McpToolHub, perCaller: (server: string) => boolean = () => false) {
    this.#hub = hub;
    this.#perCaller = perCaller;
  }

  /** Records the resource URIs `server` just listed (a `resources/list` the gateway served). */
  recordResources(server: string, uris: Iterable<string>): void {
    const set = new Set(uris);
    this.#listed.set(server, Promise.resolve(set));
    this.#listedNow.set(server, set);
  }

  /** Records the URI templates `server` just listed. */
  recordTemplates(server: string, templates: Iterable<string>): void {
    const listed = [...templates].map((text) => ({ text, matcher: matcherOf(text) }));
    this.#templates.set(server, Promise.resolve(listed));
    this.#templatesNow.set(server, listed);
  }

  /** Notes URIs a tool result or prompt message of `server` handed out (most recent kept). */
  noteSeen(server: string, uris: Iterable<string>): void {
    let seen = this.#seen.get(server);
    if (seen === undefined) {
      seen = new Map();
      this.#seen.set(server, seen);
    }
    for (const uri of uris) {
      seen.delete(uri);
      seen.set(uri, true);
      if (seen.size > SEEN_URIS_PER_SERVER) seen.delete(seen.keys().next().value as string);
    }
  }

  /** Forgets what `server` listed (its list changed, it reconnected, or it went away). */
  forget(server: string): void {
    this.#generations.set(server, (this.#generations.get(server) ?? 0) + 1);
    this.#listed.delete(server);
    this.#templates.delete(server);
    this.#listedNow.delete(server);
    this.#templatesNow.delete(server);
  }

  /**
   * Lists, where not known yet, the resources and templates of each connected server of
   * `servers`. The listing is shared by every asker, so no asker's signal cancels it: `signal`
   * only stops this asker waiting.
   */
  async load(servers: readonly string[], signal?: AbortSignal): Promise<void> {
    const waits: Promise<unknown>[] = [];
    for (const server of servers) {
      if (this.#hub.status(server)?.state !== 'connected' || this.#perCaller(server)) continue;
      if (!this.#listed.has(server) || !this.#templates.has(server)) this.#start(server);
      waits.push(this.#listed.get(server)!, this.#templates.get(server)!);
    }
    const all = Promise.allSettled(waits);
    if (signal === undefined) {
      await all;
      return;
    }
    signal.throwIfAborted();
    let stop: () => void = () => {};
    const aborted = new Promise<void>((_resolve, reject) => {
      stop = () => reject(signal.reason);
      signal.addEventListener('abort', stop, { once: true });
    });
    try {
      await Promise.race([all, aborted]);
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  /**
   * Lists `server`'s resources and templates. A server that cannot list (no resources, or a
   * failure) offers nothing until its list changes or it reconnects ({@link forget}): questions
   * never make it list again and again. A listing that {@link forget} overtook is dropped.
   */
  #start(server: string): void {
    const generation = (this.#generations.get(server) ?? 0) + 1;
    this.#generations.set(server, generation);
    const current = () => this.#generations.get(server) === generation;
    const resources = this.#hub.resources
      .list(server)
      .then((items) => new Set(items.map((item) => item.uri)) as ReadonlySet<string>)
      .catch(() => new Set<string>() as ReadonlySet<string>)
      .then((set) => {
        if (current()) this.#listedNow.set(server, set);
        return set;
      });
    const templates = this.#hub.resources
      .listTemplates(server)
      .then((items) =>
        items.map((item) => ({ text: item.uriTemplate, matcher: matcherOf(item.uriTemplate) })),
      )
      .catch((): ListedTemplate[] => [])
      .then((listed: readonly ListedTemplate[]) => {
        if (current()) this.#templatesNow.set(server, listed);
        return listed;
      });
    this.#listed.set(server, resources);
    this.#templates.set(server, templates);
  }

  /**
   * The servers of `servers` that offer `uri`: listed it, handed it out, or have a URI template
   * that matches it. All three count alike, so a server cannot take over another's URI by
   * handing it out: the URI is then shared, and read by its qualified forms.
   */
  owners(uri: string, servers: readonly string[]): string[] {
    return servers.filter(
      (server) =>
        this.#listedNow.get(server)?.has(uri) === true ||
        this.#seen.get(server)?.has(uri) === true ||
        (this.#templatesNow.get(server) ?? []).some((template) => template.matcher?.match(uri) != null),
    );
  }

  /** The servers of `servers` that listed the URI template `template` (as text). */
  listingTemplate(template: string, servers: readonly string[]): string[] {
    return servers.filter((server) =>
      (this.#templatesNow.get(server) ?? []).some((listed) => listed.text === template),
    );
  }
}
