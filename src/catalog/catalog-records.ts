import { z } from 'zod';

/**
 * The shapes of the MCP Registry's v0.1 answers (`spec/registry/openapi.yaml`, API version
 * 2025-12-01): `ServerList`, `ServerResponse` and the `server.json` record inside. Unknown keys
 * pass through (a newer registry may add fields), but every field mcptools reads is checked, so
 * a malformed or hostile answer is refused before a command line is built from it.
 */

/** One input (`Input` in the schema): what a variable, argument, header or env var needs. */
export const catalogInputSchema = z.looseObject({
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']).optional(),
  value: z.string().optional(),
  isSecret: z.boolean().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
});

const withVariables = {
  ...catalogInputSchema.shape,
  variables: z.record(z.string(), catalogInputSchema).optional(),
};

/** `KeyValueInput`: an environment variable or a header. */
export const catalogKeyValueSchema = z.looseObject({ ...withVariables, name: z.string().min(1) });

/** `PositionalArgument` or `NamedArgument`. */
export const catalogArgumentSchema = z.union([
  z.looseObject({
    ...withVariables,
    type: z.literal('positional'),
    valueHint: z.string().optional(),
    isRepeated: z.boolean().optional(),
  }),
  z.looseObject({
    ...withVariables,
    type: z.literal('named'),
    name: z.string().min(1),
    isRepeated: z.boolean().optional(),
  }),
]);

/** A remote (`StreamableHttpTransport` or `SseTransport`), also a package's transport. */
export const catalogRemoteSchema = z.looseObject({
  type: z.enum(['streamable-http', 'sse']),
  url: z.string().min(1),
  headers: z.array(catalogKeyValueSchema).optional(),
});

const transportSchema = z.union([z.looseObject({ type: z.literal('stdio') }), catalogRemoteSchema]);

/** One `Package`: how to download and run the server. */
export const catalogPackageSchema = z.looseObject({
  registryType: z.string().min(1),
  registryBaseUrl: z.string().optional(),
  identifier: z.string().min(1),
  version: z.string().min(1).optional(),
  fileSha256: z
    .string()
    .regex(/^[a-f0-9]{64}$/, 'must be 64 lowercase hex digits')
    .optional(),
  runtimeHint: z.string().optional(),
  transport: transportSchema,
  runtimeArguments: z.array(catalogArgumentSchema).optional(),
  packageArguments: z.array(catalogArgumentSchema).optional(),
  environmentVariables: z.array(catalogKeyValueSchema).optional(),
});

/** `ServerDetail`: the `server.json` record. */
export const catalogServerSchema = z.looseObject({
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'must be reverse-DNS "namespace/name"'),
  description: z.string(),
  title: z.string().optional(),
  version: z.string().min(1).max(255),
  websiteUrl: z.string().optional(),
  repository: z.looseObject({ url: z.string(), source: z.string() }).optional(),
  packages: z.array(catalogPackageSchema).optional(),
  remotes: z.array(catalogRemoteSchema).optional(),
});

/** The key of the registry-managed metadata in a `ServerResponse`'s `_meta`. */
export const OFFICIAL_META_KEY = 'io.modelcontextprotocol.registry/official';

/** `ServerResponse`: a record and what the registry says of it (status, dates, `isLatest`). */
export const catalogEntrySchema = z.looseObject({
  server: catalogServerSchema,
  _meta: z
    .looseObject({
      [OFFICIAL_META_KEY]: z
        .looseObject({
          status: z.enum(['active', 'deprecated', 'deleted']).optional(),
          statusMessage: z.string().optional(),
          publishedAt: z.string().optional(),
          updatedAt: z.string().optional(),
          isLatest: z.boolean().optional(),
        })
        .optional(),
    })
    .optional(),
});

/** `ServerList`: a page of records and the cursor of the next one. */
export const catalogPageSchema = z.looseObject({
  servers: z.array(catalogEntrySchema),
  metadata: z
    .looseObject({ nextCursor: z.string().nullable().optional(), count: z.number().optional() })
    .optional(),
});

export type CatalogInput = z.infer<typeof catalogInputSchema>;
export type CatalogKeyValue = z.infer<typeof catalogKeyValueSchema>;
export type CatalogArgument = z.infer<typeof catalogArgumentSchema>;
export type CatalogRemote = z.infer<typeof catalogRemoteSchema>;
export type CatalogPackage = z.infer<typeof catalogPackageSchema>;
export type CatalogServer = z.infer<typeof catalogServerSchema>;
export type CatalogEntry = z.infer<typeof catalogEntrySchema>;
export type CatalogPage = z.infer<typeof catalogPageSchema>;
