import type { Client } from '@modelcontextprotocol/client';

/**
 * Whether the server behind `client` declared `capability` at connect. Lists a server never
 * offered are not asked for: the SDK would answer an empty list anyway, and log a line on
 * each ask (a gateway's log was 793 such lines in twenty minutes).
 */
export function serverOffers(client: Client, capability: 'prompts' | 'resources'): boolean {
  return client.getServerCapabilities()?.[capability] !== undefined;
}
