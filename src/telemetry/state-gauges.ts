import { type McpToolsInstruments, onInstruments } from './mcptools-metrics.js';
import { ATTR } from './telemetry-names.js';

/** The servers of every open hub (each yields its connections' states). */
const serverSources = new Set<() => Iterable<{ state: string }>>();
/** The downstream sessions of every open gateway (each yields their eras: `2025` or `2026-07-28`). */
const sessionSources = new Set<() => Iterable<{ era: string }>>();
let watching = false;

/** Registers the observable gauges on each meter provider found (once per provider). */
function watch(): void {
  if (watching) return;
  watching = true;
  onInstruments((instruments: McpToolsInstruments) => {
    instruments.meter
      .createObservableGauge('mcptools.servers', { description: 'Configured MCP servers, by state' })
      .addCallback((result) => {
        const counts = new Map<string, number>();
        for (const source of serverSources)
          for (const { state } of source()) counts.set(state, (counts.get(state) ?? 0) + 1);
        for (const [state, count] of counts) result.observe(count, { [ATTR.state]: state });
      });
    instruments.meter
      .createObservableGauge('mcptools.gateway.sessions', {
        description:
          'Downstream sessions open (2025: 2025-era sessions; 2026-07-28: 2026-07-28 stdio connections)',
      })
      .addCallback((result) => {
        const counts = new Map<string, number>([['2025', 0]]);
        for (const source of sessionSources)
          for (const { era } of source()) counts.set(era, (counts.get(era) ?? 0) + 1);
        for (const [era, count] of counts) result.observe(count, { [ATTR.era]: era });
      });
  });
}

/** Counts the states of `source`'s servers in the `mcptools.servers` gauge until the returned function is called. */
export function observeServerStates(source: () => Iterable<{ state: string }>): () => void {
  serverSources.add(source);
  watch();
  return () => serverSources.delete(source);
}

/** Counts `source`'s downstream sessions in the `mcptools.gateway.sessions` gauge until the returned function is called. */
export function observeGatewaySessions(source: () => Iterable<{ era: string }>): () => void {
  sessionSources.add(source);
  watch();
  return () => sessionSources.delete(source);
}
