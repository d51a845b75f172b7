import { isIPv4, isIPv6 } from 'node:net';

/** One `host:port` entry of a box's `network.allow` list, parsed. */
export interface AllowEntry {
  /** Lower case, without a trailing dot or IPv6 brackets; without the `*.` of a wildcard. */
  host: string;
  port: number;
  /** `*.example.com`: any name under `example.com`, not `example.com` itself. */
  wildcard: boolean;
}

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** A host name (`*.` allowed in front), an IPv4 address or a bracketed IPv6 address, then `:port`. */
const ENTRY = new RegExp(
  `^(?:(\\*\\.)?(${LABEL}(?:\\.${LABEL})*)|(\\d{1,3}(?:\\.\\d{1,3}){3})|\\[([0-9a-f:.]+)\\]):(\\d{1,5})$`,
  'i',
);

/**
 * Parses an allowlist entry (`api.example.com:443`, `*.example.com:443`, `10.0.0.5:5432`,
 * `[::1]:8080`), or `undefined` when it is none of these (a port is always required).
 */
export function parseAllowEntry(entry: string): AllowEntry | undefined {
  const match = ENTRY.exec(entry);
  if (match === null) return undefined;
  const port = Number(match[5]);
  if (port < 1 || port > 65535) return undefined;
  if (match[3] !== undefined) return isIPv4(match[3]) ? { host: match[3], port, wildcard: false } : undefined;
  if (match[4] !== undefined)
    return isIPv6(match[4]) ? { host: match[4].toLowerCase(), port, wildcard: false } : undefined;
  return { host: match[2]!.toLowerCase(), port, wildcard: match[1] !== undefined };
}
