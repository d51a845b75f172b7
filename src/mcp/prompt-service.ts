import type { Client, Prompt } from '@modelcontextprotocol/client';
import { relayedRequest } from './input-required-relay.js';
import type {
  CallOptions,
  CompletionParams,
  CompletionValues,
  MultiServerList,
  PromptEntry,
  PromptResult,
  PromptService,
} from './provider-types.js';
import type { ServerDirectory } from './server-directory.js';
import { serverOffers } from './server-offers.js';
import { callerLogMeta, trackCall } from './server-requests.js';

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
 * event, like resources (seed 003); `get` throws a typed `McpToolsError`.
 */
export class McpPromptService implements PromptService {
  readonly #servers: ServerDirectory;

  constructor(servers: ServerDirectory) {
    this.#servers = servers;
  }

  async list(server: string, options?: CallOptions): Promise<PromptEntry[]> {
    const connection = this.#servers.get(server);
    const client = this.#servers.refused(server) === undefined ? connection.client : undefined;
    if (client === undefined) {
      const why = this.#servers.refused(server) ?? connection.unavailableError();
      this.#servers.warn(`${why.message}; listing no prompts`, server);
      return [];
    }
    return this.#list(server, client, options);
  }

  listAll(options?: CallOptions): Promise<MultiServerList<PromptEntry>> {
    return this.#servers.gather((server) => this.#list(server, this.#servers.client(server), options));
  }

  async get(
    server: string,
    name: string,
    args?: Record<string, string>,
    options?: CallOptions,
  ): Promise<PromptResult> {
    const client = this.#servers.client(server);
    this.#servers.checkPinned(server, 'prompt', name);
    // In flight for the caller until it settles, like a tool call (server→client requests meanwhile are its).
    const release = trackCall(client);
    // A gateway's 2026-07-28 get takes the server's input_required to its own client.
    const relay = relayedRequest(client, server, name);
    const result = await this.#servers
      .request(
        server,
        client,
        options,
        (requestOptions) =>
          client.getPrompt(
            {
              name,
              ...(args === undefined ? {} : { arguments: args }),
              ...callerLogMeta(client),
              ...relay?.params,
            },
            relay === undefined ? requestOptions : { ...requestOptions, allowInputRequired: true },
          ),
        { method: 'prompts/get', prompt: name },
      )
      .finally(release);
    if (relay?.took(result)) return { server, name, messages: [] };
    const prompt: PromptResult = {
      server,
      name,
      messages: result.messages.map((message) => ({ role: message.role, content: message.content })),
    };
    if (result.description !== undefined) prompt.description = result.description;
    return prompt;
  }

  async complete(server: string, params: CompletionParams, options?: CallOptions): Promise<CompletionValues> {
    const client = this.#servers.client(server);
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
    this.#servers.get(server).promptCount = prompts.length;
    return this.#servers.pinned(server, 'prompt', prompts).map((prompt) => promptEntry(server, prompt));
  }
}
