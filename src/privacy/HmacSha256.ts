import { createHash, createHmac } from "node:crypto";
import { HMAC_SHA256_WASM } from "./hmacSha256Wasm.ts";

/** The module, compiled once per thread on first use (~1.3 KB: synchronous compiling is allowed and quick). */
let compiled: WebAssembly.Module | undefined;

/** What the module exports (`hmacSha256Wat.ts`). */
interface HmacExports {
  readonly memory: WebAssembly.Memory;
  readonly setKey: () => void;
  readonly hmac: (length: number) => void;
}

/** Where the module reads the message (up to 55 bytes), the key (64 bytes) and writes the hex digest. */
const MESSAGE = 640;
const LONGEST_MESSAGE = 55;
const KEY = 704;
const HEX = 768;
const BLOCK_BYTES = 64;

/**
 * HMAC-SHA-256 with one key, in lowercase hex: what node:crypto's `createHmac("sha256", key)
 * .update(text).digest("hex")` gives, cut to `chars` digits. An ASCII text of up to 55 bytes (a
 * MAC address, a date) is hashed in WebAssembly from the key's states worked out once
 * (`hmacSha256Wat.ts`): ~0.4 µs instead of ~1.5–3.5 µs, most of which `createHmac` spends making
 * its objects. Any other text goes to node:crypto. A test holds the two to each other on random
 * keys and texts.
 *
 * @example
 * const hmac = new HmacSha256(new Uint8Array(16).fill(1));
 * hmac.hex("a4:5e:60:00:00:01", 32).length; // 32
 */
export class HmacSha256 {
  readonly #key: Buffer;
  readonly #bytes: Uint8Array;
  readonly #text: Buffer;
  readonly #hmac: (length: number) => void;

  /** @param key the secret key (any length; copied) */
  constructor(key: Uint8Array) {
    this.#key = Buffer.from(key);
    compiled ??= new WebAssembly.Module(Uint8Array.from(atob(HMAC_SHA256_WASM), (c) => c.charCodeAt(0)));
    const exports = new WebAssembly.Instance(compiled).exports as unknown as HmacExports;
    // The module's memory is one page and never grows, so these views stay valid.
    this.#bytes = new Uint8Array(exports.memory.buffer);
    this.#text = Buffer.from(exports.memory.buffer);
    this.#hmac = exports.hmac;
    // A key longer than a block is its hash (RFC 2104); a shorter one is padded with zeros.
    this.#bytes.set(this.#key.length > BLOCK_BYTES ? createHash("sha256").update(this.#key).digest() : this.#key, KEY);
    exports.setKey();
  }

  /**
   * The first `chars` hex digits (at most 64) of the HMAC of `text` (its UTF-8 bytes).
   *
   * @example
   * new HmacSha256(new Uint8Array(16).fill(1)).hex("2026-11-16", 64).length; // 64
   */
  hex(text: string, chars: number): string {
    const n = text.length;
    if (n <= LONGEST_MESSAGE) {
      const bytes = this.#bytes;
      let i = 0;
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c > 0x7f) break;
        bytes[MESSAGE + i] = c;
      }
      if (i === n) {
        this.#hmac(n);
        return this.#text.toString("latin1", HEX, HEX + chars);
      }
    }
    return createHmac("sha256", this.#key).update(text).digest("hex").slice(0, chars);
  }
}
