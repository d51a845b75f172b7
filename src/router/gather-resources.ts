import type { CallOptions, McpToolHub } from '../mcp/hub-types.js';
import { classifyRouterError, type RouterError } from './error-taxonomy.js';
import { serverProblem } from './server-availability.js';

/** A resource as `list_mcp_resources` shows it. */
export interface ListedResource {
  server: string;
  uri: string;
  name: string;
  description: string | null;
  mime_type: string | null;
}

/** A resource template as `list_mcp_resources` shows it. */
export interface ListedTemplate {
  server: string;
  uri_template: string;
  name: string;
  description: string | null;
  mime_type: string | null;
}

/** One server's failure inside a listing (its `errors`). */
export interface ListError {
  server: string;
  error: string;
  type: RouterError['type'];
  recoverable: boolean;
}

/** Everything several servers listed, in server order, with the failures of the rest. */
export interface GatheredResources {
  resources: ListedResource[];
  templates: ListedTemplate[];
  errors: ListError[];
}

function listError(server: string, error: RouterError): ListError {
  return { server, error: error.msg, type: error.type, recoverable: error.recoverable };
}

/** Servers without template support answer "method not found"; that is not a failure worth reporting. */
function isUnsupported(error: RouterError): boolean {
  return /method not found|-32601|not supported|capabilit/i.test(error.msg);
}

async function gatherOne(hub: McpToolHub, server: string, options: CallOptions): Promise<GatheredResources> {
  const empty: GatheredResources = { resources: [], templates: [], errors: [] };
  const problem = serverProblem(hub, server);
  if (problem) return { ...empty, errors: [listError(server, problem)] };
  const [resources, templates] = await Promise.allSettled([
    hub.resources.list(server, options),
    hub.resources.listTemplates(server, options),
  ]);
  if (resources.status === 'rejected') {
    return { ...empty, errors: [listError(server, classifyRouterError(resources.reason))] };
  }
  const gathered: GatheredResources = {
    resources: resources.value.map((entry) => ({
      server,
      uri: entry.uri,
      name: entry.name,
      description: entry.description ?? null,
      mime_type: entry.mimeType ?? null,
    })),
    templates: [],
    errors: [],
  };
  if (templates.status === 'fulfilled') {
    gathered.templates = templates.value.map((entry) => ({
      server,
      uri_template: entry.uriTemplate,
      name: entry.name,
      description: entry.description ?? null,
      mime_type: entry.mimeType ?? null,
    }));
  } else {
    const error = classifyRouterError(templates.reason);
    if (!isUnsupported(error)) gathered.errors.push(listError(server, error));
  }
  // The hub lists a disconnected server as empty; the listing wants the failure
  // visible, so a server that died while we listed it is reported, not silently empty.
  const after = serverProblem(hub, server);
  if (after && gathered.resources.length === 0 && gathered.templates.length === 0) {
    gathered.errors = [listError(server, after)];
  }
  return gathered;
}

/**
 * Lists resources and templates of `servers` in parallel. A server that is unknown,
 * disconnected or failing lands in `errors`; it never fails the whole listing.
 */
export async function gatherResources(
  hub: McpToolHub,
  servers: string[],
  options: CallOptions = {},
): Promise<GatheredResources> {
  const parts = await Promise.all(servers.map((server) => gatherOne(hub, server, options)));
  return {
    resources: parts.flatMap((part) => part.resources),
    templates: parts.flatMap((part) => part.templates),
    errors: parts.flatMap((part) => part.errors),
  };
}
