import { createHash, createHmac } from "node:crypto";
import { HMAC_SHA256_WASM } from "./hmacSha256Wasm.ts";

/** What the module exports (`hmacSha256Wat.ts`). */
interface HmacExports {
  readonly memory: WebAssembly.Memory;
  readonly setKey: () => void;
  readonly hmac: (length: number) => void;
}

/** Where the module keeps the key's states (64 bytes), reads the message (up to 55 bytes) and the key (64 bytes), and writes the hex digest. */
const STATES = 288;
const STATE_BYTES = 64;
const MESSAGE = 640;
const LONGEST_MESSAGE = 55;
const KEY = 704;
const HEX = 768;
const BLOCK_BYTES = 64;

/**
 * The module, instantiated once per thread on first use (~1.3 KB: synchronous compiling is allowed
 * and quick): one 64 KiB memory for every key, each key keeping only its 64 bytes of states.
 */
let module: { readonly exports: HmacExports; readonly memory: Buffer } | undefined;
/** The key whose states the module's memory holds. */
let keyed: HmacSha256 | undefined;

function shared(): { readonly exports: HmacExports; readonly memory: Buffer } {
  if (module === undefined) {
    const exports = new WebAssembly.Instance(new WebAssembly.Module(Uint8Array.from(atob(HMAC_SHA256_WASM), (c) => c.charCodeAt(0)))).exports as unknown as HmacExports;
    // The memory is one page and never grows, so this view stays valid.
    module = { exports, memory: Buffer.from(exports.memory.buffer) };
  }
  return module;
}

/**
 * HMAC-SHA-256 with one key, in lowercase hex: what node:crypto's `createHmac("sha256", key)
 * .update(text).digest("hex")` gives, cut to `chars` digits. An ASCII text of up to 55 bytes (a
 * MAC address, a date) is hashed in WebAssembly from the key's states worked out once
 * (`hmacSha256Wat.ts`): ~0.8 µs instead of ~1.5–3.5 µs, most of which `createHmac` spends making
 * its objects. Any other text goes to node:crypto. A test holds the two to each other on random
 * keys and texts. Keys share the thread's one module: a key holds 64 bytes (a pseudonymizer with
 * daily rotation has one a day).
 *
 * @example
 * const hmac = new HmacSha256(new Uint8Array(16).fill(1));
 * hmac.hex("a4:5e:60:00:00:01", 32).length; // 32
 */
export class HmacSha256 {
  readonly #key: Buffer;
  /** The key's inner and outer states, as the module's `setKey` works them out. */
  readonly #states: Buffer;
  readonly #module = shared();

  /** @param key the secret key (any length; copied) */
  constructor(key: Uint8Array) {
    this.#key = Buffer.from(key);
    const { exports, memory } = this.#module;
    // A key longer than a block is its hash (RFC 2104); a shorter one is padded with zeros.
    memory.fill(0, KEY, KEY + BLOCK_BYTES);
    memory.set(this.#key.length > BLOCK_BYTES ? createHash("sha256").update(this.#key).digest() : this.#key, KEY);
    exports.setKey();
    this.#states = Buffer.from(memory.subarray(STATES, STATES + STATE_BYTES));
    keyed = this;
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
      const { exports, memory } = this.#module;
      let i = 0;
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c > 0x7f) break;
        memory[MESSAGE + i] = c;
      }
      if (i === n) {
        if (keyed !== this) {
          memory.set(this.#states, STATES);
          keyed = this;
        }
        exports.hmac(n);
        return memory.toString("latin1", HEX, HEX + chars);
      }
    }
    return createHmac("sha256", this.#key).update(text).digest("hex").slice(0, chars);
  }
}
