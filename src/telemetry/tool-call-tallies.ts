import type { Attributes } from '@opentelemetry/api';
import { onInstruments } from './mcptools-metrics.js';
import { ATTR } from './telemetry-names.js';

/**
 * Tool-call counts kept in plain maps and reported by observable instruments when metrics are
 * collected: a call then costs a map update, not an SDK record (each of which hashes its
 * attributes: the bulk of what metrics cost a call).
 */
const calls = new Map<string, { attributes: Attributes; count: number }>();
const inFlight = new Map<string, number>();
const bytes = new Map<string, { out: number; in: number }>();
let registered = false;

function register(): void {
  if (registered) return;
  registered = true;
  onInstruments(({ meter }) => {
    meter
      .createObservableCounter('mcptools.tool.calls', {
        description: 'Tool calls, by server, tool and outcome',
      })
      .addCallback((result) => {
        for (const { attributes, count } of calls.values()) result.observe(count, attributes);
      });
    meter
      .createObservableUpDownCounter('mcptools.tool.calls.in_flight', { description: 'Tool calls in flight' })
      .addCallback((result) => {
        for (const [server, count] of inFlight) result.observe(count, { [ATTR.server]: server });
      });
    meter
      .createObservableCounter('mcptools.tool.bytes', {
        description: 'Characters of JSON sent (arguments) and received (result content) by tool calls',
        unit: 'By',
      })
      .addCallback((result) => {
        for (const [server, total] of bytes) {
          result.observe(total.out, { [ATTR.server]: server, [ATTR.direction]: 'out' });
          result.observe(total.in, { [ATTR.server]: server, [ATTR.direction]: 'in' });
        }
      });
  });
}

/** One more call of `server`'s `tool` in flight. */
export function callStarted(server: string): void {
  register();
  inFlight.set(server, (inFlight.get(server) ?? 0) + 1);
}

/** A call ended with `outcome`, having sent `sent` and received `received` characters. */
export function callEnded(
  server: string,
  tool: string,
  outcome: string,
  sent: number,
  received: number,
): void {
  inFlight.set(server, (inFlight.get(server) ?? 1) - 1);
  const key = `${server}\u0000${tool}\u0000${outcome}`;
  const tally = calls.get(key);
  if (tally) tally.count++;
  else
    calls.set(key, {
      attributes: { [ATTR.server]: server, [ATTR.toolName]: tool, [ATTR.outcome]: outcome },
      count: 1,
    });
  const total = bytes.get(server);
  if (total) {
    total.out += sent;
    total.in += received;
  } else bytes.set(server, { out: sent, in: received });
}
