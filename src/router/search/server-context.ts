import { buildPostings, type FieldTerms, type Posting } from './bm25f-postings.js';
import type { SearchField } from './search-tuning.js';

/** Server-level postings: one document per server holding the names and descriptions of all its tools. */
export interface ServerContext {
  /** Number of servers. */
  size: number;
  /** Server index of each tool, -1 for a tool without a server. */
  serverOf: Int32Array;
  postings: Map<string, Posting>;
}

/** Builds {@link ServerContext} from the analyzed tools of an index. */
export function buildServerContext(
  servers: readonly (string | undefined)[],
  analyzed: readonly Record<SearchField, string[]>[],
): ServerContext {
  const indexOfServer = new Map<string, number>();
  const docs: FieldTerms[] = [];
  const serverOf = new Int32Array(servers.length).fill(-1);
  servers.forEach((server, doc) => {
    if (server === undefined) return;
    let serverIndex = indexOfServer.get(server);
    if (serverIndex === undefined) {
      serverIndex = docs.length;
      indexOfServer.set(server, serverIndex);
      docs.push({ description: [] });
    }
    serverOf[doc] = serverIndex;
    const terms = analyzed[doc]!;
    docs[serverIndex]!.description!.push(...terms.name, ...terms.description);
  });
  return { size: docs.length, serverOf, postings: buildPostings(docs, { description: 1 }, { description: 0.75 }) };
}
