/**
 * The keys a server entry of `mcptools.json` may have (a stdio entry's, then an HTTP entry's
 * own), for "did you mean" hints. Kept apart from the zod schemas (`config-schema.ts`, whose
 * shapes a test checks against these lists) so that reading a valid file never loads zod.
 */
export const serverEntryKeys: readonly string[] = [
  'type',
  'command',
  'args',
  'env',
  'cwd',
  'sandbox',
  'trusted',
  'enabled',
  'connectTimeoutMs',
  'callTimeoutMs',
  'tools',
  'prefix',
  'protocol',
  'url',
  'headers',
  'auth',
];

/** The keys the top level of `mcptools.json` may have, in the schema's order. */
export const topLevelKeys: readonly string[] = [
  '$schema',
  'servers',
  'namespace',
  'tools',
  'router',
  'plugins',
  'maxResultChars',
  'maxResponseBytes',
  'maxArgumentBytes',
  'gateway',
  'telemetry',
  'policies',
  'pins',
  'protocol',
  'workspaceDir',
  'sandbox',
  'registries',
];
