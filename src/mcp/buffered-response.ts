/**
 * A `Response` whose body was read already (a `Buffer` or a string), and, when given, parsed:
 * `text()` and `json()` hand those over without the web stream `new Response(body)` builds
 * (about 30 µs per response on Node 20, most of an HTTP call's own cost); `body`,
 * `arrayBuffer()`, `blob()`, `formData()` and `clone()` use a real `Response` of the same
 * bytes, made when first asked for.
 */
export class BufferedResponse extends Response {
  readonly #content: Buffer | string;
  readonly #parsed: { value: unknown } | undefined;
  #used = false;
  #inner: Response | undefined;

  constructor(content: Buffer | string, init: ResponseInit, parsed?: { value: unknown }) {
    super(null, init);
    this.#content = content;
    this.#parsed = parsed;
  }

  #real(): Response {
    this.#inner ??= new Response(this.#content as BodyInit);
    return this.#inner;
  }

  #take(): void {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
  }

  override get body(): Response['body'] {
    return this.#real().body;
  }

  override get bodyUsed(): boolean {
    return this.#used || (this.#inner?.bodyUsed ?? false);
  }

  override async text(): Promise<string> {
    this.#take();
    return typeof this.#content === 'string' ? this.#content : this.#content.toString('utf8');
  }

  override async json(): Promise<unknown> {
    if (this.#parsed === undefined) return JSON.parse(await this.text());
    this.#take();
    return this.#parsed.value;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#real().arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.#real().blob();
  }

  override formData(): Promise<FormData> {
    return this.#real().formData();
  }

  override clone(): Response {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    const { status, statusText, headers } = this;
    return new BufferedResponse(
      this.#content,
      { status, statusText, headers: new Headers(headers) },
      this.#parsed,
    );
  }
}
