import { analyzeText } from './analyze-text.js';
import type { SearchField } from './search-tuning.js';

/**
 * The words that name a server (`github` in `server-github`), mapped to the servers they
 * name. A word names a server only if few tools of other servers use it (`search` in
 * `server-brave-search` names nothing: half the catalog searches something).
 */
export function buildServerMentions(
  servers: readonly (string | undefined)[],
  analyzed: readonly Record<SearchField, string[]>[],
): Map<string, Set<string>> {
  const toolCount = new Map<string, number>();
  for (const server of servers)
    if (server !== undefined) toolCount.set(server, (toolCount.get(server) ?? 0) + 1);
  const candidates = new Map<string, Set<string>>();
  for (const server of toolCount.keys()) {
    for (const term of analyzeText(server)) {
      if (term.length < 3) continue;
      const named = candidates.get(term) ?? new Set<string>();
      named.add(server);
      candidates.set(term, named);
    }
  }
  // How many tools outside the named servers use each candidate word in their name or description.
  const elsewhere = new Map<string, number>();
  analyzed.forEach((terms, doc) => {
    const server = servers[doc];
    const counted = new Set<string>();
    for (const field of [terms.name, terms.description]) {
      for (const term of field) {
        const named = candidates.get(term);
        if (!named || counted.has(term) || (server !== undefined && named.has(server))) continue;
        counted.add(term);
        elsewhere.set(term, (elsewhere.get(term) ?? 0) + 1);
      }
    }
  });
  const mentions = new Map<string, Set<string>>();
  for (const [term, named] of candidates) {
    const own = [...named].reduce((sum, server) => sum + (toolCount.get(server) ?? 0), 0);
    if ((elsewhere.get(term) ?? 0) <= Math.max(2, own / 2)) mentions.set(term, named);
  }
  return mentions;
}
