import {
  type Client,
  type McpSubscription,
  type Resource,
  type ResourceTemplateType,
  UriTemplate,
} from '@modelcontextprotocol/client';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { checkResourceUri } from './check-resource-uri.js';
import type {
  CallOptions,
  MultiServerList,
  ResourceContents,
  ResourceEntry,
  ResourceService,
  ResourceTemplateEntry,
} from './hub-types.js';
import type { ReadScreen } from './read-screen.js';
import { clientEra } from './sdk-era.js';
import type { ServerDirectory } from './server-directory.js';
import { serverOffers } from './server-offers.js';

function resourceEntry(server: string, resource: Resource): ResourceEntry {
  const entry: ResourceEntry = { server, uri: resource.uri, name: resource.name };
  if (resource.title !== undefined) entry.title = resource.title;
  if (resource.description !== undefined) entry.description = resource.description;
  if (resource.mimeType !== undefined) entry.mimeType = resource.mimeType;
  if (resource.size !== undefined) entry.size = resource.size;
  return entry;
}

function templateEntry(server: string, template: ResourceTemplateType): ResourceTemplateEntry {
  const entry: ResourceTemplateEntry = { server, uriTemplate: template.uriTemplate, name: template.name };
  if (template.title !== undefined) entry.title = template.title;
  if (template.description !== undefined) entry.description = template.description;
  if (template.mimeType !== undefined) entry.mimeType = template.mimeType;
  return entry;
}

/**
 * Resources of every server with these semantics: listing a disconnected server yields
 * `[]` and a `warning` event; reading throws a typed `McpToolsError`; `listAll` isolates
 * each server's failure into `errors`.
 */
export class McpResourceService implements ResourceService {
  readonly #servers: ServerDirectory;
  /** The subscriptions/listen streams holding resource subscriptions on 2026-07-28 clients. */
  readonly #listens = new WeakMap<Client, Map<string, McpSubscription>>();
  /** URIs subscribed on each 2026-07-28 client and not unsubscribed since (listened again when a stream ends). */
  readonly #wanted = new WeakMap<Client, Set<string>>();
  /** How many streams for `server\0uri` ended in a row within 30 s of opening (the backoff). */
  readonly #relistens = new Map<string, number>();
  /** The servers whose resource templates this process listed (and its pins screened) once. */
  readonly #screenedTemplates = new Set<string>();

  /** The guards over what a read returns (`undefined`: none configured). */
  readonly #screen: ReadScreen | undefined;

  constructor(servers: ServerDirectory, screen?: ReadScreen) {
    this.#servers = servers;
    this.#screen = screen;
  }

  async list(server: string, options?: CallOptions): Promise<ResourceEntry[]> {
    const client = await this.#connectedOrWarn(server, 'resources', options);
    if (!client) return [];
    return this.#list(server, client, options);
  }

  listAll(options?: CallOptions): Promise<MultiServerList<ResourceEntry>> {
    return this.#servers.gather((server, client) => this.#list(server, client, options), options?.context);
  }

  async listTemplates(server: string, options?: CallOptions): Promise<ResourceTemplateEntry[]> {
    const client = await this.#connectedOrWarn(server, 'resource templates', options);
    if (!client) return [];
    return this.#templates(server, client, options);
  }

  listAllTemplates(options?: CallOptions): Promise<MultiServerList<ResourceTemplateEntry>> {
    return this.#servers.gather(
      (server, client) => this.#templates(server, client, options),
      options?.context,
    );
  }

  async read(server: string, uri: string, options?: CallOptions): Promise<ResourceContents[]> {
    checkResourceUri(uri, server);
    const connected = await this.#servers.connected(server, options?.context, { signIn: true });
    await this.#refuseHeldTemplate(server, uri, connected.client, options);
    const sent = await this.#servers.requestForCaller(
      server,
      connected,
      uri,
      options,
      (params, requestOptions) => connected.client.readResource({ uri, ...params }, requestOptions),
      { operation: 'resource', uri, method: 'resources/read' },
    );
    if (sent.relayed) return [];
    const contents = sent.result.contents.map((item) => {
      const content: ResourceContents = { uri: item.uri };
      if (item.mimeType !== undefined) content.mimeType = item.mimeType;
      if ('text' in item && typeof item.text === 'string') content.text = item.text;
      if ('blob' in item && typeof item.blob === 'string') content.blob = item.blob;
      if (item._meta !== undefined) content._meta = item._meta as Record<string, unknown>;
      return content;
    });
    return this.#screen === undefined
      ? contents
      : this.#screen.resource({ server, what: 'resource' }, contents);
  }

  async subscribe(server: string, uri: string, options?: CallOptions): Promise<void> {
    const client = await this.#sharedClient(server, uri, options);
    if (clientEra(client) === '2026-07-28') {
      // 2026-07-28 has no resources/subscribe: a subscriptions/listen stream names the URI,
      // and its updates reach the client's notifications/resources/updated handler.
      let listens = this.#listens.get(client);
      if (listens === undefined) {
        listens = new Map();
        this.#listens.set(client, listens);
      }
      let wanted = this.#wanted.get(client);
      if (wanted === undefined) {
        wanted = new Set();
        this.#wanted.set(client, wanted);
      }
      wanted.add(uri);
      if (listens.has(uri)) return;
      const subscription = await this.#servers
        .request(
          server,
          client,
          options,
          (requestOptions) => client.listen({ resourceSubscriptions: [uri] }, requestOptions),
          { operation: 'resource', uri, method: 'resources/read' },
        )
        .catch((error: unknown) => {
          wanted.delete(uri);
          throw error;
        });
      if (!subscription.honoredFilter.resourceSubscriptions?.includes(uri)) {
        wanted.delete(uri);
        // The server acknowledged the stream without the URI: it does not subscribe to resources.
        await subscription.close();
        throw new McpToolsError(
          'UPSTREAM_ERROR',
          `server "${server}" did not accept a subscription to ${uri} (it does not declare resources.subscribe)`,
          { data: { server, uri }, recoverable: false },
        );
      }
      if (listens.has(uri)) await subscription.close();
      else {
        listens.set(uri, subscription);
        this.#watch(server, client, uri, subscription);
      }
      return;
    }
    await this.#servers.request(
      server,
      client,
      options,
      (requestOptions) => client.subscribeResource({ uri }, requestOptions),
      { operation: 'resource', uri, method: 'resources/read' },
    );
  }

  /**
   * Listens again when the server ends `subscription`'s stream (`remote` or `graceful`) while
   * the connection stays up: after 1 s, doubling up to 30 s while streams keep ending within
   * 30 s. Not after `unsubscribe`, nor once the client was replaced (a reconnect: the caller
   * subscribes again then).
   */
  #watch(server: string, client: Client, uri: string, subscription: McpSubscription): void {
    const opened = Date.now();
    void subscription.closed.then((reason) => {
      const listens = this.#listens.get(client);
      if (reason === 'local' || listens?.get(uri) !== subscription) return;
      listens.delete(uri);
      const key = `${server}\u0000${uri}`;
      const ended = Date.now() - opened < 30_000 ? (this.#relistens.get(key) ?? 0) + 1 : 1;
      this.#relistens.set(key, ended);
      const delay = Math.min(30_000, 1000 * 2 ** (ended - 1));
      this.#servers.warn(
        `the subscriptions/listen stream for ${uri} ended (${reason}); listening again in ${delay} ms`,
        server,
      );
      const relisten = () => {
        const current = this.#listens.get(client);
        if (this.#servers.get(server).client !== client || current === undefined || current.has(uri)) return;
        if (!this.#wanted.get(client)?.has(uri)) return;
        this.subscribe(server, uri).catch((error: unknown) => {
          this.#servers.warn(
            `listening again for ${uri} failed: ${error instanceof Error ? error.message : String(error)}`,
            server,
          );
        });
      };
      setTimeout(relisten, delay).unref();
    });
  }

  async unsubscribe(server: string, uri: string, options?: CallOptions): Promise<void> {
    const client = await this.#sharedClient(server, uri, options);
    if (clientEra(client) === '2026-07-28') {
      this.#wanted.get(client)?.delete(uri);
      const listens = this.#listens.get(client);
      const subscription = listens?.get(uri);
      listens?.delete(uri);
      await subscription?.close();
      return;
    }
    await this.#servers.request(
      server,
      client,
      options,
      (requestOptions) => client.unsubscribeResource({ uri }, requestOptions),
      { operation: 'resource', uri, method: 'resources/read' },
    );
  }

  async #list(server: string, client: Client, options?: CallOptions): Promise<ResourceEntry[]> {
    if (!serverOffers(client, 'resources')) return [];
    const { resources } = await this.#servers.request(server, client, options, (requestOptions) =>
      client.listResources(undefined, requestOptions),
    );
    // A caller's own connection lists that caller's resources, not the server's count.
    if (this.#servers.isShared(server, client)) this.#servers.get(server).resourceCount = resources.length;
    return resources.map((resource) => resourceEntry(server, resource));
  }

  /**
   * The client a subscription to `server` is held on: the shared one only, because updates reach
   * subscribers through the shared connection's notifications; a server reached with each
   * caller's own credentials is refused (its updates would come from the caller's connection).
   */
  async #sharedClient(server: string, uri: string, options?: CallOptions): Promise<Client> {
    const client = await this.#servers.client(server, options?.context);
    if (this.#servers.isShared(server, client)) return client;
    throw new McpToolsError(
      'PERMISSION_DENIED',
      `server "${server}" uses each caller's own credentials: subscriptions to its resources are not served`,
      { data: { server, uri }, recoverable: false },
    );
  }

  async #templates(server: string, client: Client, options?: CallOptions): Promise<ResourceTemplateEntry[]> {
    if (!serverOffers(client, 'resources')) return [];
    const { resourceTemplates } = await this.#servers.request(server, client, options, (requestOptions) =>
      client.listResourceTemplates(undefined, requestOptions),
    );
    this.#screenedTemplates.add(server);
    return this.#servers
      .pinned(server, 'template', resourceTemplates)
      .map((template) => templateEntry(server, template));
  }

  /**
   * Refuses (`PERMISSION_DENIED`, as a call of a quarantined tool) a read of a URI that a resource
   * template held back by its pins matches: the template's reads are what changed. A process
   * that has not listed the server's templates yet (the CLI) lists them first, so that what the
   * server lists now is screened; later reads use what the last list held back.
   */
  async #refuseHeldTemplate(
    server: string,
    uri: string,
    client: Client,
    options?: CallOptions,
  ): Promise<void> {
    if (!this.#servers.pinsEnforce(server, 'template')) return;
    if (!this.#screenedTemplates.has(server)) await this.#templates(server, client, options);
    for (const template of this.#servers.pendingTemplates(server))
      if (templateMatches(template.uriTemplate, uri))
        this.#servers.checkPinned(server, 'template', template.name);
  }

  /** The client serving `server` for the caller of `options`, or `undefined` after a warning (refused, not connected). */
  async #connectedOrWarn(server: string, what: string, options?: CallOptions): Promise<Client | undefined> {
    this.#servers.get(server); // an unknown server is an error, not a warning
    try {
      return await this.#servers.client(server, options?.context);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#servers.warn(`${message}; listing no ${what}`, server);
      return undefined;
    }
  }
}

/** Whether `uri` is one of the URIs `uriTemplate` (RFC 6570) describes; a template that does not parse matches nothing. */
function templateMatches(uriTemplate: string, uri: string): boolean {
  try {
    return new UriTemplate(uriTemplate).match(uri) !== null;
  } catch {
    return false;
  }
}
