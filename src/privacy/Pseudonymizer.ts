import { HmacSha256 } from "./HmacSha256.ts";

/**
 * How pseudonyms relate across days.
 * - `"none"`: one key for every day, so a device has the same pseudonym every day (new vs repeat
 *   visitors work; a device can be followed across days by whoever holds the outputs).
 * - `"daily"`: a per-day key HMAC(key, "YYYY-MM-DD") (the shop's local date), so the same device
 *   gets unrelated pseudonyms on different days and cannot be linked across them (repeat visitors
 *   are unavailable).
 */
export type PseudonymRotation = "none" | "daily";

/** Options of {@link Pseudonymizer}. */
export interface PseudonymizerOptions {
  /** The secret key (at least 16 bytes). It is copied, never printed, and never part of a pseudonym. */
  readonly key: Uint8Array;
  /** Key rotation. @default "none" */
  readonly rotation?: PseudonymRotation;
  /** Width of a pseudonym in bytes of the HMAC-SHA-256 (printed as twice as many hex digits), 8…32. @default 16 */
  readonly bytes?: number;
}

/**
 * Defaults of {@link PseudonymizerOptions}.
 *
 * @example
 * defaultPseudonymizer.bytes; // 16
 */
export const defaultPseudonymizer = { rotation: "none", bytes: 16 } as const satisfies Omit<PseudonymizerOptions, "key">;

// About 100 MB at most; one shop-day of a big shop has tens of thousands of devices.
const MAX_CACHED = 1 << 20;

/**
 * Shortest key accepted, in bytes (128 bits: the pseudonyms' secrecy rests on it).
 *
 * @example
 * MIN_KEY_BYTES; // 16
 */
export const MIN_KEY_BYTES = 16;

/**
 * Keyed pseudonyms of device MACs: the lowercase hex of HMAC-SHA-256(key, MAC) truncated to
 * `bytes` bytes. Without the key a pseudonym cannot be turned back into a MAC (a MAC has only
 * 48 bits, so an unkeyed hash could be reversed by trying them all). The MAC is normalised
 * (lowercase, colons) before hashing, so every textual form of one MAC gets one pseudonym.
 *
 * Use one instance per output: it remembers each device's pseudonym (a Map lookup), so each
 * device is hashed once per output and day, not once per record.
 *
 * The key is held in a private field; `JSON.stringify` and `util.inspect` of an instance show no key.
 *
 * @example
 * const p = new Pseudonymizer({ key: new Uint8Array(32).fill(7) });
 * p.pseudonym("a4:5e:60:00:00:01", "2026-11-16").length; // 32
 */
export class Pseudonymizer {
  /** The rotation in use. */
  readonly rotation: PseudonymRotation;
  /** Pseudonym width, bytes. */
  readonly bytes: number;
  readonly #key: Buffer;
  readonly #hmac: HmacSha256;
  readonly #cache = new Map<string, string>();
  /** Per local date (daily rotation), the HMAC with that day's key. */
  readonly #dayHmacs = new Map<string, HmacSha256>();

  constructor(options: PseudonymizerOptions) {
    const rotation = options.rotation ?? defaultPseudonymizer.rotation;
    const bytes = options.bytes ?? defaultPseudonymizer.bytes;
    if (!(options.key instanceof Uint8Array)) throw new TypeError("Pseudonymizer: key must be a Uint8Array");
    if (options.key.length < MIN_KEY_BYTES) throw new RangeError(`Pseudonymizer: key must be at least ${MIN_KEY_BYTES} bytes, got ${options.key.length}`);
    if (rotation !== "none" && rotation !== "daily") throw new RangeError(`Pseudonymizer: rotation must be "none" or "daily", got ${JSON.stringify(rotation)}`);
    if (!Number.isInteger(bytes) || bytes < 8 || bytes > 32) throw new RangeError(`Pseudonymizer: bytes must be an integer from 8 to 32, got ${bytes}`);
    this.rotation = rotation;
    this.bytes = bytes;
    this.#key = Buffer.from(options.key);
    this.#hmac = new HmacSha256(this.#key);
  }

  /**
   * The pseudonym of `device` (a MAC in any textual form) on local date `date` ("YYYY-MM-DD";
   * required with daily rotation, ignored without it).
   *
   * @example
   * new Pseudonymizer({ key: new Uint8Array(16).fill(1) }).pseudonym("A4-5E-60-00-00-01"); // 32 hex digits
   */
  pseudonym(device: string, date?: string): string {
    const daily = this.rotation === "daily";
    if (daily && (date === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(date))) {
      throw new RangeError(`Pseudonymizer: daily rotation needs the local date as YYYY-MM-DD, got ${JSON.stringify(date)}`);
    }
    const cacheKey = daily ? `${date}|${device}` : device;
    const known = this.#cache.get(cacheKey);
    if (known !== undefined) return known;
    // A long-running writer (a fleet worker) sees new devices forever: bound the memory, at the
    // cost of hashing some devices again.
    if (this.#cache.size >= MAX_CACHED) this.#cache.clear();
    const value = (daily ? this.#dayHmac(date!) : this.#hmac).hex(normalizeMacText(device), this.bytes * 2);
    this.#cache.set(cacheKey, value);
    return value;
  }

  /**
   * The options of a copy that gives the same pseudonyms, key included: for a copy in another
   * thread of this process (a decode thread writing session lines). Never print or store them.
   *
   * @example
   * const p = new Pseudonymizer({ key: new Uint8Array(16).fill(1) });
   * new Pseudonymizer(p.copyOptions()).pseudonym("a4:5e:60:00:00:01") === p.pseudonym("a4:5e:60:00:00:01"); // true
   */
  copyOptions(): Required<PseudonymizerOptions> {
    return { key: Uint8Array.from(this.#key), rotation: this.rotation, bytes: this.bytes };
  }

  /**
   * How many (device, day) pseudonyms this instance holds: the HMACs it paid for (until
   * its memory bound, about a million, is reached and it starts again).
   *
   * @example
   * const p = new Pseudonymizer({ key: new Uint8Array(16).fill(1) });
   * p.pseudonym("a4:5e:60:00:00:01"); p.pseudonym("a4:5e:60:00:00:01");
   * p.computed; // 1
   */
  get computed(): number {
    return this.#cache.size;
  }

  // The day's key is the HMAC of its date under the key.
  #dayHmac(date: string): HmacSha256 {
    let h = this.#dayHmacs.get(date);
    if (h === undefined) {
      h = new HmacSha256(Buffer.from(this.#hmac.hex(date, 64), "hex"));
      this.#dayHmacs.set(date, h);
    }
    return h;
  }

  /**
   * The settings without the key, so `JSON.stringify` of a pseudonymizer shows no secret.
   *
   * @example
   * JSON.stringify(new Pseudonymizer({ key: new Uint8Array(16).fill(1) })); // '{"rotation":"none","bytes":16}'
   */
  toJSON(): { rotation: PseudonymRotation; bytes: number } {
    return { rotation: this.rotation, bytes: this.bytes };
  }
}


const NORMAL_MAC = /^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/;

// "A4-5E-60-00-00-01", "a45e60000001" and "a4:5e:60:00:00:01" are one device; anything else is hashed as given.
function normalizeMacText(device: string): string {
  // The decoder's MACs are in normal form already: one test instead of three rewrites.
  if (NORMAL_MAC.test(device)) return device;
  const hex = device.replace(/[:\-.]/g, "").toLowerCase();
  if (!/^[0-9a-f]{12}$/.test(hex)) return device;
  return hex.replace(/(..)(?!$)/g, "$1:");
}
