import type { CallOptions, McpToolHub, ResourceContents } from '../mcp/hub-types.js';
import type { CallContext } from '../tool/call-context.js';
import { base64ByteLength, formatBytes } from '../tool/result.js';
import type { JsonSchemaObject, Tool } from '../tool/tool.js';
import { truncateUtf8 } from '../tool/truncate.js';
import { defineRouterTool } from './define-router-tool.js';
import { classifyRouterError, routerError } from './error-taxonomy.js';
import type { ResolvedRouterOptions } from './router-options.js';
import { errorOutcome, type RouterOutcome } from './router-result.js';
import { serverProblem } from './server-availability.js';

/** One item of a `read_mcp_resource` result, in the shape the router's contract gives it. */
export interface ReadContent {
  uri: string;
  mime_type: string | null;
  text: string | null;
  /** Decoded byte length of `blob`; `null` for text. */
  blob_length: number | null;
  /** Base64, verbatim, never cut. */
  blob: string | null;
}

/** Which tool to build: the router one or one bound to a single server. */
export interface ReadResourceToolTarget {
  name: string;
  server?: string;
}

/** How many URIs a ResourceNotFound error lists (its "Available Resources List"). */
const AVAILABLE_LIMIT = 20;

/** A URI needs a scheme (RFC 3986 §3.1) and no whitespace or control characters. */
const URI_PATTERN = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s\p{Cc}]*$/u;

function parametersFor(bound: boolean, defaultMax: number, routed: boolean): JsonSchemaObject {
  const common = {
    uri: { type: 'string' },
    max_bytes: { type: 'integer', minimum: 1, description: `Text byte cap (default ${defaultMax})` },
  };
  if (bound) return { type: 'object', properties: common, required: ['uri'] };
  return routed
    ? {
        type: 'object',
        properties: { server: { type: 'string', description: 'Omit: the URI names its server' }, ...common },
        required: ['uri'],
      }
    : { type: 'object', properties: { server: { type: 'string' }, ...common }, required: ['server', 'uri'] };
}

/**
 * The server and URI to read: as given; or, where URIs are routed (`settings.resourceUris`),
 * the server that offers `uri` when none is named, and the server's own URI behind a qualified
 * one named with its server.
 */
async function targetOf(
  settings: ResolvedRouterOptions,
  server: string | undefined,
  uri: string,
  signal?: AbortSignal,
): Promise<{ server: string; uri: string }> {
  const routing = settings.resourceUris;
  if (routing === undefined || server !== undefined) {
    if (routing === undefined || server === undefined) return { server: String(server), uri };
    const located = await routing.locate(uri, signal).catch(() => undefined);
    return located?.server === server ? located : { server, uri };
  }
  return routing.locate(uri, signal);
}

/** Applies the byte budget across text items in order; blobs are never cut. */
function capContents(contents: ResourceContents[], maxBytes: number) {
  let budget = maxBytes;
  let originalSize = 0;
  let shown = 0;
  let truncated = false;
  const items: ReadContent[] = contents.map((content) => {
    const base = { uri: content.uri, mime_type: content.mimeType ?? null };
    if (typeof content.text === 'string') {
      const cut = truncateUtf8(content.text, budget);
      budget -= cut.shownSize;
      originalSize += cut.originalSize;
      shown += cut.shownSize;
      truncated ||= cut.truncated;
      return { ...base, text: cut.text, blob_length: null, blob: null };
    }
    const blob = content.blob ?? '';
    const length = base64ByteLength(blob);
    originalSize += length;
    shown += length;
    return { ...base, text: null, blob_length: length, blob };
  });
  return { items, truncated, originalSize, shown };
}

async function availableResources(hub: McpToolHub, server: string, options: CallOptions) {
  const [resources, templates] = await Promise.allSettled([
    hub.resources.list(server, options),
    hub.resources.listTemplates(server, options),
  ]);
  const uris = resources.status === 'fulfilled' ? resources.value.map((entry) => entry.uri) : [];
  const patterns = templates.status === 'fulfilled' ? templates.value.map((entry) => entry.uriTemplate) : [];
  return {
    available: uris.slice(0, AVAILABLE_LIMIT),
    ...(uris.length > AVAILABLE_LIMIT ? { available_total: uris.length } : {}),
    ...(patterns.length > 0 ? { available_templates: patterns.slice(0, AVAILABLE_LIMIT) } : {}),
  };
}

/**
 * `read_mcp_resource { server, uri, max_bytes? }`: reads one resource, cuts
 * text on a UTF-8 character boundary at the byte cap, returns blobs verbatim with their
 * decoded length, and reports failures with the router's error taxonomy. Read-only.
 */
export function createReadResourceTool(
  base: McpToolHub,
  settings: ResolvedRouterOptions,
  target: ReadResourceToolTarget,
): Tool {
  const parameters = parametersFor(
    target.server !== undefined,
    settings.readMaxBytes,
    settings.resourceUris !== undefined,
  );
  const run = async (params: Record<string, unknown>, call: CallContext): Promise<RouterOutcome> => {
    const { signal } = call;
    // What this caller may reach: the view of the hub for them (a gateway profile's).
    const hub = settings.view(base, call.caller);
    const asked = String(params.uri);
    if (!URI_PATTERN.test(asked)) {
      const server = target.server ?? (params.server === undefined ? undefined : String(params.server));
      return errorOutcome(
        routerError('INVALID_URI', `"${asked}" is not a URI (expected scheme:rest)`),
        server === undefined ? { uri: asked } : { server, uri: asked },
        {},
        asked,
      );
    }
    let located: { server: string; uri: string };
    try {
      located = await targetOf(
        settings,
        target.server ?? (params.server === undefined ? undefined : String(params.server)),
        asked,
        signal,
      );
    } catch (error) {
      return errorOutcome(classifyRouterError(error), { uri: asked }, {}, asked);
    }
    const { server, uri } = located;
    const context = { server, uri };
    if (!URI_PATTERN.test(uri)) {
      return errorOutcome(
        routerError('INVALID_URI', `"${uri}" is not a URI (expected scheme:rest)`),
        context,
        {},
        uri,
      );
    }
    const problem = serverProblem(hub, server);
    if (problem) return errorOutcome(problem, context, {}, uri);
    let contents: ResourceContents[];
    try {
      contents = await hub.resources.read(server, uri, {
        ...(signal ? { signal } : {}),
        context: call,
        ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
      });
    } catch (error) {
      const classified = classifyRouterError(error);
      if (classified.type !== 'ResourceNotFound') return errorOutcome(classified, context, {}, uri);
      // A missing resource answers with what the server does have.
      const notFound = { ...classified, msg: `URI '${uri}' not found on server '${server}'` };
      return errorOutcome(
        notFound,
        context,
        await availableResources(hub, server, { ...(signal ? { signal } : {}), context: call }),
        uri,
      );
    }
    const maxBytes = (params.max_bytes as number | undefined) ?? settings.readMaxBytes;
    const capped = capContents(contents, maxBytes);
    const payload = { server, uri, contents: capped.items, truncated: capped.truncated };
    const single = capped.items.length === 1 ? capped.items[0] : undefined;
    const body = single
      ? single.text !== null
        ? { content: single.text }
        : { mime_type: single.mime_type, blob_length: single.blob_length, blob: single.blob }
      : { contents: capped.items };
    return {
      state: capped.truncated ? 'partial' : 'success',
      summary: capped.truncated
        ? `resource read: ${uri} (truncated to ${formatBytes(capped.shown)} of ${formatBytes(capped.originalSize)})`
        : `resource read: ${uri} (${formatBytes(capped.originalSize)})`,
      payload,
      compactData: {
        uri,
        ...body,
        truncated: capped.truncated,
        original_size: capped.originalSize,
        ...(capped.truncated ? { shown: capped.shown } : {}),
      },
    };
  };
  return defineRouterTool(
    {
      name: target.name,
      label: target.server === undefined ? 'Read MCP resource' : `Read resource of ${target.server}`,
      description:
        target.server === undefined
          ? 'Read an MCP resource by server and URI. Text over max_bytes is cut; blobs are base64.'
          : `Read a resource of MCP server ${target.server} by URI.`,
      parameters,
      ...(target.server === undefined ? {} : { server: target.server }),
      run,
    },
    settings.format,
  );
}
