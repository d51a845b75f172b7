import { UriTemplate } from '@modelcontextprotocol/server';
import type { MCPToolProvider } from '../mcp/provider-types.js';

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
  readonly #provider: MCPToolProvider;
  readonly #listed = new Map<string, Promise<ReadonlySet<string>>>();
  readonly #templates = new Map<string, Promise<readonly ListedTemplate[]>>();
  /** Settled lists, read without waiting. */
  readonly #listedNow = new Map<string, ReadonlySet<string>>();
  readonly #templatesNow = new Map<string, readonly ListedTemplate[]>();
  readonly #seen = new Map<string, Map<string, true>>();

  constructor(provider: MCPToolProvider) {
    this.#provider = provider;
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
    this.#listed.delete(server);
    this.#templates.delete(server);
    this.#listedNow.delete(server);
    this.#templatesNow.delete(server);
  }

  /** Lists, where not known yet, the resources and templates of each connected server of `servers`. */
  async load(servers: readonly string[], signal?: AbortSignal): Promise<void> {
    const waits: Promise<unknown>[] = [];
    for (const server of servers) {
      if (this.#provider.status(server)?.state !== 'connected') continue;
      if (!this.#listed.has(server)) this.#start(server, 'resources', signal);
      if (!this.#templates.has(server)) this.#start(server, 'templates', signal);
      waits.push(this.#listed.get(server)!, this.#templates.get(server)!);
    }
    await Promise.allSettled(waits);
  }

  #start(server: string, kind: 'resources' | 'templates', signal?: AbortSignal): void {
    const options = signal ? { signal } : {};
    if (kind === 'resources') {
      const listing = this.#provider.resources.list(server, options).then((items) => {
        const set = new Set(items.map((item) => item.uri));
        if (this.#listed.get(server) === listing) this.#listedNow.set(server, set);
        return set as ReadonlySet<string>;
      });
      this.#listed.set(server, listing);
      // A failed listing is not remembered: the next question lists again.
      listing.catch(() => {
        if (this.#listed.get(server) === listing) this.#listed.delete(server);
      });
    } else {
      const listing = this.#provider.resources.listTemplates(server, options).then((items) => {
        const listed = items.map((item) => ({
          text: item.uriTemplate,
          matcher: matcherOf(item.uriTemplate),
        }));
        if (this.#templates.get(server) === listing) this.#templatesNow.set(server, listed);
        return listed as readonly ListedTemplate[];
      });
      this.#templates.set(server, listing);
      listing.catch(() => {
        if (this.#templates.get(server) === listing) this.#templates.delete(server);
      });
    }
  }

  /** The servers of `servers` that listed `uri` or handed it out. */
  offering(uri: string, servers: readonly string[]): string[] {
    return servers.filter(
      (server) => this.#listedNow.get(server)?.has(uri) === true || this.#seen.get(server)?.has(uri) === true,
    );
  }

  /** The servers of `servers` with a URI template that matches `uri`. */
  matching(uri: string, servers: readonly string[]): string[] {
    return servers.filter((server) =>
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
