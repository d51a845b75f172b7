/** The headers of a request as the front door reads them: a `Request`'s, or a Node request's read in place. */
export interface HeaderSource {
  readonly headers: { get(name: string): string | null };
  /** The request's target (a URL, or a path as Node's `req.url` has it): which endpoint a token must name. */
  readonly url?: string;
}
