import type { Client, Prompt } from '@modelcontextprotocol/client';
import type {
  CallOptions,
  CompletionParams,
  CompletionValues,
  MultiServerList,
  PromptEntry,
  PromptResult,
  PromptService,
} from './hub-types.js';
import type { ReadScreen } from './read-screen.js';
import type { ServerDirectory } from './server-directory.js';
import { serverOffers } from './server-offers.js';

function promptEntry(server: string, prompt: Prompt): PromptEntry {
  const entry: PromptEntry = { server, name: prompt.name };
  if (prompt.title !== undefined) entry.title = prompt.title;
  if (prompt.description !== undefined) entry.description = prompt.description;
  if (prompt.arguments !== undefined) {
    entry.arguments = prompt.arguments.map((argument) => {
      const item: { name: string; description?: string; required?: boolean } = { name: argument.name };
      if (argument.description !== undefined) item.description = argument.description;
      if (argument.required !== undefined) item.required = argument.required;
      return item;
    });
  }
  return entry;
}

/**
 * Prompts of every server: listing a disconnected server yields `[]` and a `warning`
 * event, like resources; `get` throws a typed `McpToolsError`.
 */
export class McpPromptService implements PromptService {
  readonly #servers: ServerDirectory;

  /** The guards over what a get returns (`undefined`: none configured). */
  readonly #screen: ReadScreen | undefined;

  constructor(servers: ServerDirectory, screen?: ReadScreen) {
    this.#servers = servers;
    this.#screen = screen;
  }

  async list(server: string, options?: CallOptions): Promise<PromptEntry[]> {
    this.#servers.get(server); // an unknown server is an error, not a warning
    let client: Client;
    try {
      client = await this.#servers.client(server, options?.context);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#servers.warn(`${message}; listing no prompts`, server);
      return [];
    }
    return this.#list(server, client, options);
  }

  listAll(options?: CallOptions): Promise<MultiServerList<PromptEntry>> {
    return this.#servers.gather((server, client) => this.#list(server, client, options), options?.context);
  }

  async get(
    server: string,
    name: string,
    args?: Record<string, string>,
    options?: CallOptions,
  ): Promise<PromptResult> {
    const connected = await this.#servers.connected(server, options?.context, { signIn: true });
    this.#servers.checkPinned(server, 'prompt', name);
    const sent = await this.#servers.requestForCaller(
      server,
      connected,
      name,
      options,
      (params, requestOptions) =>
        connected.client.getPrompt(
          { name, ...(args === undefined ? {} : { arguments: args }), ...params },
          requestOptions,
        ),
      { method: 'prompts/get', prompt: name },
    );
    if (sent.relayed) return { server, name, messages: [] };
    const result = sent.result;
    const prompt: PromptResult = {
      server,
      name,
      messages: result.messages.map((message) => ({ role: message.role, content: message.content })),
    };
    if (result.description !== undefined) prompt.description = result.description;
    return this.#screen === undefined
      ? prompt
      : this.#screen.prompt({ server, what: `prompt ${name}` }, prompt);
  }

  async complete(server: string, params: CompletionParams, options?: CallOptions): Promise<CompletionValues> {
    const client = await this.#servers.client(server, options?.context);
    const result = await this.#servers.request(server, client, options, (requestOptions) =>
      client.complete(params, requestOptions),
    );
    return result.completion;
  }

  async #list(server: string, client: Client, options?: CallOptions): Promise<PromptEntry[]> {
    if (!serverOffers(client, 'prompts')) return [];
    const { prompts } = await this.#servers.request(server, client, options, (requestOptions) =>
      client.listPrompts(undefined, requestOptions),
    );
    // A caller's own connection lists that caller's prompts, not the server's count.
    if (this.#servers.isShared(server, client)) this.#servers.get(server).promptCount = prompts.length;
    return this.#servers.pinned(server, 'prompt', prompts).map((prompt) => promptEntry(server, prompt));
  }
}
