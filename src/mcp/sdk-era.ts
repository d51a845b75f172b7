import type { ProtocolEra } from './protocol-era.js';

/**
 * The SDK's name of an era: `legacy` for 2025 (`initialize`), `modern` for 2026-07-28. It is
 * read only where the SDK gives it (`getProtocolEra()`, a server factory's `context.era`) and
 * turned into a {@link ProtocolEra} at once; status keeps it as the deprecated `era`.
 */
export type SdkEra = 'legacy' | 'modern';

/** The era the SDK calls `era`, by mcptools' name: `2025` or `2026-07-28`. */
export function eraFromSdk(era: SdkEra): ProtocolEra {
  return era === 'legacy' ? '2025' : '2026-07-28';
}

/** The SDK's name of `era`: its options and the deprecated `era` of status speak it. */
export function sdkEraOf(era: ProtocolEra): SdkEra {
  return era === '2025' ? 'legacy' : 'modern';
}

/** The era a client negotiated, `undefined` before it has. */
export function clientEra(client: { getProtocolEra(): SdkEra | undefined }): ProtocolEra | undefined {
  const era = client.getProtocolEra();
  return era === undefined ? undefined : eraFromSdk(era);
}
