/** A request body read as text, or the note that it was larger than the cap and left unread. */
export type ReadBody = { readonly text: string } | { readonly tooLarge: true };

/**
 * One HTTP request as a face of the gateway (the web `fetch`, the Node server) hands it to the
 * routing both faces share: what the routing reads, and the two things it asks of the face.
 * The face does only the I/O, so the order of checks, the answers and their headers are the
 * routing's alone and cannot differ between faces.
 */
export interface HttpExchange {
  /**
   * The request as the handlers read it: a web `Request`, or the Node face's stand-in for one.
   * Its body is read only through {@link readBody}.
   */
  readonly request: Request;
  /** The request target as it arrived: a path with its query, or a whole URL. */
  readonly target: string;
  /** The target's path, decoded as a URL parser reads it (never taken from the `Host` header). */
  readonly pathname: string;
  /** Reads the body as UTF-8 text, up to `maxBytes`; past that it stops reading and says so. Once per exchange. */
  readBody(maxBytes: number): Promise<ReadBody>;
  /** Adds a header to the answer, whatever the answer turns out to be. */
  setHeader(name: string, value: string): void;
}
