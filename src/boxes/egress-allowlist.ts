import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { AllowEntry } from '../config/allow-entry.js';

/** The host of a request target as the allowlist compares it: lower case, no trailing dot or brackets. */
export function normalizeHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.$/, '');
}

/** The entry of `allow` that lets a box reach `host:port`, or `undefined` (the request is refused). */
export function matchAllowEntry(
  allow: readonly AllowEntry[],
  host: string,
  port: number,
): AllowEntry | undefined {
  const name = normalizeHost(host);
  return allow.find(
    (entry) =>
      entry.port === port && (entry.wildcard ? name.endsWith(`.${entry.host}`) : name === entry.host),
  );
}

/**
 * Addresses a box never reaches through a name: this machine (loopback, unspecified), private
 * networks (RFC 1918, unique local, shared CGNAT space), link-local (the cloud metadata address
 * 169.254.169.254 among them), benchmark, documentation, multicast and reserved ranges. The
 * gateway, Redis and a metadata service live there.
 */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address an IPv4-mapped or NAT64 IPv6 address carries (`::ffff:127.0.0.1`), else `undefined`. */
function embeddedIPv4(address: string): string | undefined {
  const match = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(
    address,
  );
  if (match === null) return undefined;
  if (match[1] !== undefined) return match[1];
  const high = Number.parseInt(match[2]!, 16);
  const low = Number.parseInt(match[3]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** `true` when `address` (an IP literal) is on the public internet, not in a {@link NON_PUBLIC} range. */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !NON_PUBLIC.check(address, 'ipv4');
  if (!isIPv6(address)) return false;
  const v4 = embeddedIPv4(address);
  if (v4 !== undefined) return isPublicAddress(v4);
  return !NON_PUBLIC.check(address, 'ipv6');
}

/** `true` when `address` is a loopback address (`127.0.0.0/8`, `::1`, or `::ffff:127.x`). */
function isLoopback(address: string): boolean {
  if (isIPv4(address)) return address.startsWith('127.');
  const v4 = embeddedIPv4(address);
  return v4 === undefined ? address === '::1' : isLoopback(v4);
}

/**
 * Whether a box may connect to `address`, which the proxy resolved for a request `entry` allowed:
 * a public address always; a non-public one only when the entry names it, as that IP literal or
 * as `localhost` (for a loopback address). A public name that resolves to `127.0.0.1` (DNS
 * rebinding) or a metadata address is refused.
 */
export function addressPermitted(entry: AllowEntry, address: string): boolean {
  if (isPublicAddress(address)) return true;
  if (entry.host === 'localhost') return isLoopback(address);
  return normalizeHost(address) === entry.host;
}
