import { HEX_ANY } from "./hexDigit.ts";

const QUOTE = 34;
const COLON = 58;
const DASH = 45;
const DOT = 46;

/**
 * Normal-form MACs as strings, by their 48-bit value: an open-addressing table (two 24-bit halves
 * in typed arrays), so a MAC already seen costs no string, no hashing of text and no boxed number,
 * whatever its spelling. A MAC's string is made once, from its value (never a view into a chunk of
 * input, which it would keep alive: MACs outlive their lines as the engine's per-device keys).
 * Emptied when it holds TABLE_LIMIT MACs, so ever-new randomised MACs cannot grow it without bound
 * (2 MiB of typed arrays and 2 MiB of references, per thread).
 */
const TABLE_BITS = 18;
const TABLE_SIZE = 1 << TABLE_BITS;
const TABLE_LIMIT = TABLE_SIZE >> 1;
const tableHigh = new Int32Array(TABLE_SIZE);
const tableLow = new Int32Array(TABLE_SIZE);
const tableText: (string | undefined)[] = new Array<string | undefined>(TABLE_SIZE).fill(undefined);
let tableCount = 0;

/** Char codes of the lowercase hex digits, by value. */
const DIGIT = Uint8Array.from("0123456789abcdef", (c) => c.charCodeAt(0));

/** Char code of the hex digit of `value` at bit `shift`. */
function d(value: number, shift: number): number {
  return DIGIT[(value >>> shift) & 15]!;
}

/** The normal form (`aa:bb:cc:dd:ee:ff`) of the MAC whose halves are `high` and `low` (24 bits each). */
function normalText(high: number, low: number): string {
  // One flat string of 17 one-byte characters: no rope, no view.
  return String.fromCharCode(
    d(high, 20), d(high, 16), COLON, d(high, 12), d(high, 8), COLON, d(high, 4), d(high, 0), COLON,
    d(low, 20), d(low, 16), COLON, d(low, 12), d(low, 8), COLON, d(low, 4), d(low, 0),
  );
}

/** Value of the two hex digits (either case) at `i`: negative when one is not a hex digit. */
function octet(view: DataView, i: number): number {
  // A non-digit reads as −1, every bit set, which the OR (or the shift) keeps negative.
  return (HEX_ANY[view.getUint8(i)]! << 4) | HEX_ANY[view.getUint8(i + 1)]!;
}

/** The interned normal-form string of the MAC with halves `high` and `low`. */
function intern(high: number, low: number): string {
  let slot = Math.imul(high ^ Math.imul(low, 0x9e3779b1), 0x85ebca6b) >>> (32 - TABLE_BITS);
  for (;;) {
    const known = tableText[slot];
    if (known === undefined) break;
    if (tableHigh[slot] === high && tableLow[slot] === low) return known;
    slot = (slot + 1) & (TABLE_SIZE - 1);
  }
  if (tableCount >= TABLE_LIMIT) {
    tableText.fill(undefined);
    tableCount = 0;
    return intern(high, low);
  }
  const text = normalText(high, low);
  tableHigh[slot] = high;
  tableLow[slot] = low;
  tableText[slot] = text;
  tableCount++;
  return text;
}

/**
 * Where {@link macOfBytes} leaves the end of the MAC it read.
 *
 * @example
 * const cursor: MacCursor = { end: 0 };
 */
export interface MacCursor {
  /** Index of the byte after the MAC's closing quote. */
  end: number;
}

/**
 * The MAC whose text starts at byte `at` of `view` and is closed by a `"` (a JSON string's body,
 * as the service writes `device_id` and `square_mac`), read, checked and normalised in one pass:
 * in every layout `toNormalMac` accepts — `aa:bb:cc:dd:ee:ff` or `aa-bb-cc-dd-ee-ff` (one
 * separator throughout), `aabb.ccdd.eeff`, bare `aabbccddeeff`, digits of either case — it returns
 * the MAC's normal form (lowercase, colons), the same string for every spelling of one MAC, made
 * once per MAC (interned by its 48-bit value), and leaves the index after the closing quote in
 * `cursor.end`. Returns `undefined` for anything else (then the caller reads the record the general
 * way, and the decoder says why it is not a MAC). Reads no byte at or after `limit`.
 *
 * @example
 * const view = new DataView(new TextEncoder().encode('"F0-18-98-12-34-56","f018.9812.3456"').buffer);
 * const cursor: MacCursor = { end: 0 };
 * macOfBytes(view, 1, view.byteLength, cursor);            // "f0:18:98:12:34:56"
 * cursor.end;                                             // 19
 * macOfBytes(view, 21, view.byteLength, cursor) === macOfBytes(view, 1, view.byteLength, cursor); // true
 * macOfBytes(new DataView(new TextEncoder().encode('"f0:18"').buffer), 1, 7, cursor); // undefined
 */
export function macOfBytes(view: DataView, at: number, limit: number, cursor: MacCursor): string | undefined {
  // The shortest layout's closing quote, which also keeps the reads below inside the view.
  if (at + 12 >= limit) return undefined;
  let high: number;
  let low: number;
  // The layout is told by what stands at +2 (a separator only in the 17-character layouts) and
  // at +4 (the dotted one's first dot); each is then checked whole, closing quote included.
  const sep = view.getUint8(at + 2);
  if (sep === COLON || sep === DASH) {
    // aa:bb:cc:dd:ee:ff (the service's) or aa-bb-cc-dd-ee-ff: four words (bytes 0–15, first in the
    // low lane), then the last digit and the closing quote.
    if (at + 17 >= limit || view.getUint8(at + 17) !== QUOTE) return undefined;
    const w0 = view.getInt32(at, true); // h h : h
    const w1 = view.getInt32(at + 4, true); // h : h h
    const w2 = view.getInt32(at + 8, true); // : h h :
    const w3 = view.getInt32(at + 12, true); // h h : h
    if (
      ((w1 >>> 8) & 0xff) !== sep ||
      (w2 & 0xff) !== sep ||
      w2 >>> 24 !== sep ||
      ((w3 >>> 16) & 0xff) !== sep
    ) {
      return undefined;
    }
    // (Table reads written out: a helper closure here would be a function object per call under
    // tsx, which names every function it defines.)
    const h = HEX_ANY;
    high =
      (h[w0 & 0xff]! << 20) | (h[(w0 >>> 8) & 0xff]! << 16) | (h[w0 >>> 24]! << 12) |
      (h[w1 & 0xff]! << 8) | (h[(w1 >>> 16) & 0xff]! << 4) | h[w1 >>> 24]!;
    low =
      (h[(w2 >>> 8) & 0xff]! << 20) | (h[(w2 >>> 16) & 0xff]! << 16) | (h[w3 & 0xff]! << 12) |
      (h[(w3 >>> 8) & 0xff]! << 8) | (h[w3 >>> 24]! << 4) | h[view.getUint8(at + 16)]!;
    cursor.end = at + 18;
  } else if (view.getUint8(at + 4) === DOT) {
    if (at + 14 >= limit || view.getUint8(at + 14) !== QUOTE || view.getUint8(at + 9) !== DOT) return undefined;
    high = (octet(view, at) << 16) | (octet(view, at + 2) << 8) | octet(view, at + 5);
    low = (octet(view, at + 7) << 16) | (octet(view, at + 10) << 8) | octet(view, at + 12);
    cursor.end = at + 15;
  } else {
    if (at + 12 >= limit || view.getUint8(at + 12) !== QUOTE) return undefined;
    high = (octet(view, at) << 16) | (octet(view, at + 2) << 8) | octet(view, at + 4);
    low = (octet(view, at + 6) << 16) | (octet(view, at + 8) << 8) | octet(view, at + 10);
    cursor.end = at + 13;
  }
  // A non-digit makes its octet negative, and so its half: one sign test for twelve digits.
  if ((high | low) < 0) return undefined;
  return intern(high, low);
}
