import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type Client,
  type ClientCapabilities,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/client';

/** The parameters of a `sampling/createMessage` request (deprecated in 2026-07-28, still common). */
export type SamplingRequest = CreateMessageRequest['params'];
/** The parameters of an `elicitation/create` request. */
export type ElicitationRequest = ElicitRequest['params'];

/** Who asks and how to stop: handed to every server→client request callback. */
export interface ServerRequestContext {
  /** The configured name of the server that asked. */
  server: string;
  /** Aborted when the server cancels the request or the connection closes. */
  signal: AbortSignal;
}

/** Answers a server's sampling request with a completion from a model the host controls. */
export type SamplingHandler = (
  request: SamplingRequest,
  context: ServerRequestContext,
) => Promise<CreateMessageResult>;
/** Answers a server's elicitation (form) request with the user's decision. */
export type ElicitationHandler = (
  request: ElicitationRequest,
  context: ServerRequestContext,
) => Promise<ElicitResult>;

/** A filesystem root offered to servers: a path or a `file://` URL, with an optional name. */
export type RootInput = string | { uri: string; name?: string };

/** What the hub offers servers that ask the client for something. */
export interface ServerRequestOptions {
  onSamplingRequest?: SamplingHandler;
  onElicitation?: ElicitationHandler;
  /** Roots (2025-era `roots/list`, or `input_required` in 2026-07-28). */
  roots?: { uri: string; name?: string }[];
}

/** Roots from `workspaceDir` and explicit `roots`, as `file://` URLs. */
export function resolveRoots(
  workspaceDir: string | undefined,
  roots: RootInput[] | undefined,
): { uri: string; name?: string }[] | undefined {
  const resolved: { uri: string; name?: string }[] = [];
  const add = (input: RootInput) => {
    const root = typeof input === 'string' ? { uri: input } : input;
    const uri = root.uri.startsWith('file://') ? root.uri : pathToFileURL(resolve(root.uri)).href;
    const name = root.name ?? (basename(new URL(uri).pathname) || undefined);
    resolved.push(name === undefined ? { uri } : { uri, name });
  };
  if (workspaceDir !== undefined) add(workspaceDir);
  for (const root of roots ?? []) add(root);
  return resolved.length > 0 ? resolved : undefined;
}

/** The client capabilities to declare: only what is configured (a server never asks for the rest). */
export function clientCapabilities(options: ServerRequestOptions): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (options.onSamplingRequest) capabilities.sampling = {};
  // applyDefaults: the SDK fills in schema defaults the host left out of an accepted form (SEP-1034).
  if (options.onElicitation) capabilities.elicitation = { form: { applyDefaults: true } };
  if (options.roots) capabilities.roots = { listChanged: false };
  return capabilities;
}

const notEnabled: Record<string, string> = {
  'sampling/createMessage': 'sampling is not enabled in mcptools; pass onSamplingRequest to loadMCPServers',
  'elicitation/create': 'elicitation is not enabled in mcptools; pass onElicitation to loadMCPServers',
  'roots/list': 'roots are not enabled in mcptools; pass workspaceDir or roots to loadMCPServers',
};

/**
 * Registers the configured handlers on `client` and a fallback that answers anything else
 * with a JSON-RPC error saying what to configure. The same handlers serve 2025-era
 * server→client requests and 2026-era `input_required` rounds (the SDK routes both).
 */
export function installServerRequestHandlers(
  client: Client,
  server: string,
  options: ServerRequestOptions,
): void {
  const { onSamplingRequest, onElicitation, roots } = options;
  if (onSamplingRequest) {
    client.setRequestHandler('sampling/createMessage', (request, context) =>
      onSamplingRequest(request.params, { server, signal: context.mcpReq.signal }),
    );
  }
  if (onElicitation) {
    client.setRequestHandler('elicitation/create', (request, context) =>
      onElicitation(request.params, { server, signal: context.mcpReq.signal }),
    );
  }
  if (roots) {
    client.setRequestHandler('roots/list', async () => ({ roots }));
  }
  client.fallbackRequestHandler = async (request) => {
    const message = notEnabled[request.method];
    throw new ProtocolError(
      ProtocolErrorCode.MethodNotFound,
      message ?? `mcptools does not handle ${request.method}`,
    );
  };
}
