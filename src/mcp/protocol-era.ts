/** A protocol era by its name: `2025` (2024-11-05 to 2025-06-18) or `2026-07-28`. */
export type ProtocolEra = '2025' | '2026-07-28';
