import type { McpToolHub } from '../mcp/hub-types.js';
import type { CallContext } from '../tool/call-context.js';
import type { JsonSchemaObject, Tool } from '../tool/tool.js';
import { defineRouterTool } from './define-router-tool.js';
import { routerError } from './error-taxonomy.js';
import { gatherResources, type ListedResource, type ListedTemplate } from './gather-resources.js';
import { decodeListCursor, encodeListCursor } from './list-cursor.js';
import type { ResolvedRouterOptions } from './router-options.js';
import { errorOutcome, type RouterOutcome } from './router-result.js';
import { activeServers, serverProblem } from './server-availability.js';

/** Which tool to build: the router one (any server) or one bound to a single server. */
export interface ListResourcesToolTarget {
  name: string;
  /** Bind the tool to this server (per-server tools); the `server` argument disappears. */
  server?: string;
}

function parametersFor(bound: boolean, defaultMax: number): JsonSchemaObject {
  const pageProperties = {
    max: { type: 'integer', minimum: 1, description: `Max entries (default ${defaultMax})` },
    cursor: { type: 'string', description: 'next_cursor from a truncated call' },
  };
  return bound
    ? { type: 'object', properties: pageProperties }
    : {
        type: 'object',
        properties: { server: { type: 'string', description: 'Omit for all servers' }, ...pageProperties },
      };
}

function compactData(
  resources: ListedResource[],
  templates: ListedTemplate[],
  payload: Record<string, unknown>,
) {
  const byServer = new Map<string, { name: string; resources: string[]; templates: string[] }>();
  const group = (server: string) => {
    const existing = byServer.get(server);
    if (existing) return existing;
    const created = { name: server, resources: [] as string[], templates: [] as string[] };
    byServer.set(server, created);
    return created;
  };
  for (const resource of resources) group(resource.server).resources.push(resource.uri);
  for (const template of templates) group(template.server).templates.push(template.uri_template);
  return {
    servers: [...byServer.values()].map((entry) =>
      entry.templates.length > 0 ? entry : { name: entry.name, resources: entry.resources },
    ),
    total_servers: byServer.size,
    total_resources: resources.length,
    ...(templates.length > 0 ? { total_templates: templates.length } : {}),
    truncated: payload.truncated,
    ...(Array.isArray(payload.errors) && payload.errors.length > 0 ? { errors: payload.errors } : {}),
    ...(payload.next_cursor === undefined ? {} : { next_cursor: payload.next_cursor }),
  };
}

/**
 * `list_mcp_resources { server?, max?, cursor? }`: resources and templates of
 * one server or every enabled one, listed in parallel, capped with a continuation cursor,
 * per-server failures in `errors`. Read-only.
 */
export function createListResourcesTool(
  base: McpToolHub,
  settings: ResolvedRouterOptions,
  target: ListResourcesToolTarget,
): Tool {
  const parameters = parametersFor(target.server !== undefined, settings.listMaxResources);
  const run = async (params: Record<string, unknown>, call: CallContext): Promise<RouterOutcome> => {
    const { signal } = call;
    // What this caller may reach: the view of the hub for them (a gateway profile's).
    const hub = settings.view(base, call.caller);
    const server = target.server ?? (params.server as string | undefined);
    const max = (params.max as number | undefined) ?? settings.listMaxResources;
    let offset = 0;
    if (typeof params.cursor === 'string' && params.cursor.length > 0) {
      const cursor = decodeListCursor(params.cursor);
      if (!cursor || cursor.server !== server) {
        return errorOutcome(routerError('INVALID_ARGUMENTS', 'cursor is not a next_cursor of this listing'));
      }
      offset = cursor.offset;
    }
    if (server !== undefined && !hub.status(server)) {
      return errorOutcome(serverProblem(hub, server)!, { server });
    }
    const servers = server === undefined ? activeServers(hub) : [server];
    const gathered = await gatherResources(hub, servers, {
      ...(signal ? { signal } : {}),
      context: call,
      ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
    });
    // Where URIs are routed without a server, a URI two servers share is listed qualified.
    if (settings.resourceUris !== undefined && gathered.resources.length > 0) {
      const names = await settings.resourceUris.present(gathered.resources);
      gathered.resources = gathered.resources.map((entry, index) => ({
        ...entry,
        uri: names[index] ?? entry.uri,
      }));
    }
    const total = gathered.resources.length + gathered.templates.length;
    const end = Math.min(total, offset + max);
    // Resources first, then templates, as one sequence so the cap and cursor cover both.
    const resources = gathered.resources.slice(offset, end);
    const templateStart = Math.max(0, offset - gathered.resources.length);
    const templates = gathered.templates.slice(
      templateStart,
      Math.max(templateStart, end - gathered.resources.length),
    );
    const truncated = end < total;
    const payload: Record<string, unknown> = {
      resources,
      templates,
      truncated,
      errors: gathered.errors,
      count: resources.length + templates.length,
      ...(truncated
        ? { next_cursor: encodeListCursor({ offset: end, ...(server === undefined ? {} : { server }) }) }
        : {}),
    };
    const serverCount = new Set([...resources, ...templates].map((entry) => entry.server)).size;
    const notes = [
      ...(gathered.errors.length > 0 ? [`${gathered.errors.length} server(s) failed`] : []),
      ...(truncated ? [`showing ${end - offset} of ${total - offset}`] : []),
    ];
    return {
      state: truncated || gathered.errors.length > 0 ? 'partial' : 'success',
      summary: `resource list: ${serverCount} server(s), ${resources.length} resource(s), ${templates.length} template(s)${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`,
      payload,
      compactData: compactData(resources, templates, payload),
    };
  };
  return defineRouterTool(
    {
      name: target.name,
      label: target.server === undefined ? 'List MCP resources' : `List resources of ${target.server}`,
      description:
        target.server === undefined
          ? 'List resources and URI templates of connected MCP servers.'
          : `List resources of MCP server ${target.server}.`,
      parameters,
      ...(target.server === undefined ? {} : { server: target.server }),
      run,
    },
    settings.format,
  );
}
