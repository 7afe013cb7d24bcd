const decoder = new TextDecoder();

/**
 * A `Response` over bytes already in memory, for the simulator's hot path. The standard
 * constructor wraps every body in a ReadableStream (the larger part of serving a page);
 * this subclass keeps the bytes and builds a stream only if `body` is actually read, while
 * `text()`, `json()`, `arrayBuffer()`, `blob()`, `bytes()` and `clone()` work on the bytes
 * directly. It is a real `Response` (instanceof, status, headers, bodyUsed) for any caller.
 *
 * @example
 * const res = new BytesResponse(new TextEncoder().encode('{"ok":true}'), { status: 200, headers: { "content-type": "application/json" } });
 * await res.json(); // { ok: true }
 */
export class BytesResponse extends Response {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  #used = false;
  #stream: ReadableStream<Uint8Array> | undefined;

  constructor(bytes: Uint8Array<ArrayBuffer>, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    if (this.#stream === undefined) {
      const bytes = this.#bytes;
      this.#stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      });
    }
    return this.#stream as ReadableStream<Uint8Array<ArrayBuffer>>;
  }

  override get bodyUsed(): boolean {
    return this.#used || (this.#stream?.locked ?? false);
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return (await this.#take()).slice();
  }

  override async text(): Promise<string> {
    return decoder.decode(await this.#take());
  }

  override async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  override async blob(): Promise<Blob> {
    return new Blob([await this.#take()], { type: this.headers.get("content-type") ?? "" });
  }

  override clone(): Response {
    if (this.bodyUsed) throw new TypeError("Response.clone: body has already been used");
    return new BytesResponse(this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers });
  }

  async #take(): Promise<Uint8Array<ArrayBuffer>> {
    if (this.bodyUsed) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    if (this.#stream === undefined) return this.#bytes;
    // Someone touched `body` without reading it: read it like any stream.
    return new Uint8Array(await new Response(this.#stream).arrayBuffer());
  }
}
