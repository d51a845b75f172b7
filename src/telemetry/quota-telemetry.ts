import { mcptoolsInstruments } from './mcptools-metrics.js';

/**
 * Counts one request refused by the gateway quota `quota` (`sessions_per_principal`, …) as
 * `mcptools.gateway.quota.refusals`. Labelled by the quota only: a principal's name would put
 * who uses the gateway into every scrape. A no-op while no meter provider is registered.
 */
export function countQuotaRefusal(quota: string): void {
  mcptoolsInstruments()?.quotaRefusals.add(1, { 'mcptools.quota': quota });
}
