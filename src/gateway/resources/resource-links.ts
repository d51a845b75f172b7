import { presentUri, type ResourceScope } from './resource-routing.js';

type Block = { type?: unknown; uri?: unknown; resource?: { uri?: unknown } };

/** The URI a content block hands out: a `resource_link`'s, or an embedded resource's. */
function linkedUri(block: unknown): string | undefined {
  const candidate = block as Block | null;
  if (candidate === null || typeof candidate !== 'object') return undefined;
  if (candidate.type === 'resource_link' && typeof candidate.uri === 'string') return candidate.uri;
  if (candidate.type === 'resource' && typeof candidate.resource?.uri === 'string')
    return candidate.resource.uri;
  return undefined;
}

/** `block` with its handed-out URI replaced by `uri` (a copy; the original is never changed). */
function withUri<T>(block: T, uri: string): T {
  const candidate = block as Block;
  if (candidate.type === 'resource_link') return { ...block, uri };
  return { ...block, resource: { ...candidate.resource, uri } };
}

/**
 * Notes the URIs `server`'s content blocks hand out (tool results, prompt messages) in the
 * index, so they read back through the gateway, and names each as the client must name it: a
 * URI another visible server offers too becomes `mcptools://<server>/<uri>`. Blocks without
 * links come back as they were. `scopeOf` is asked only when a block hands out a link: the
 * servers the caller sees are worked out over every server, and most results link nothing.
 */
export async function presentLinks<T>(
  scopeOf: () => ResourceScope,
  server: string,
  blocks: readonly T[],
): Promise<T[]> {
  if (!blocks.some((block) => linkedUri(block) !== undefined)) return blocks as T[];
  const uris = blocks.map(linkedUri);
  const handed = uris.filter((uri): uri is string => uri !== undefined);
  const scope = scopeOf();
  scope.index.noteSeen(server, handed);
  await scope.index.load(scope.servers);
  return blocks.map((block, position) => {
    const uri = uris[position];
    if (uri === undefined) return block;
    const named = presentUri(scope, server, uri);
    return named === uri ? block : withUri(block, named);
  });
}
