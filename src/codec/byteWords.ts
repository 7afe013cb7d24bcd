/**
 * Reading ASCII text four bytes at a time, for the byte reader of signal records
 * (`readSignalRecord`). Why words: on the machines footfall is benched on, a `DataView.getInt32`
 * costs about what one `Uint8Array` element load costs, so comparing or scanning four bytes per
 * load takes a fraction of the time of a loop over bytes (measured: a 160-byte string scan 2.8 →
 * 1.3 ns a byte; see docs/performance.md). Internal to the codec.
 */

/**
 * An ASCII literal of 4 to 16 bytes as up to four little-endian 32-bit words, read at offsets
 * 0, o1, o2 and o3 (the last ones overlap when the length is not a multiple of four).
 *
 * @example
 * const open: ByteLiteral = byteLiteral('{"row_key":"');
 * open.length; // 12
 */
export interface ByteLiteral {
  /** Bytes. */
  readonly length: number;
  readonly w0: number;
  readonly w1: number;
  readonly w2: number;
  readonly w3: number;
  readonly o1: number;
  readonly o2: number;
  readonly o3: number;
}

/**
 * The {@link ByteLiteral} of `text`: ASCII, 4 to 16 characters (a RangeError otherwise).
 *
 * @example
 * byteLiteral("true").w0 === 0x65757274; // true: "t" is the low byte
 */
export function byteLiteral(text: string): ByteLiteral {
  if (text.length < 4 || text.length > 16 || !/^[\x00-\x7f]*$/.test(text)) throw new RangeError(`byteLiteral: 4 to 16 ASCII characters, got ${JSON.stringify(text)}`);
  const word = (at: number): number =>
    text.charCodeAt(at) | (text.charCodeAt(at + 1) << 8) | (text.charCodeAt(at + 2) << 16) | (text.charCodeAt(at + 3) << 24);
  const offset = (k: number): number => Math.min(4 * k, text.length - 4);
  return { length: text.length, w0: word(0), w1: word(offset(1)), w2: word(offset(2)), w3: word(offset(3)), o1: offset(1), o2: offset(2), o3: offset(3) };
}

/**
 * True when the bytes of `view` at `i` spell `literal`, all of them below `limit` (≤ the view's
 * length): four word loads whatever the length.
 *
 * @example
 * const view = new DataView(new TextEncoder().encode('{"row_key":"101:').buffer);
 * literalAt(view, 0, view.byteLength, byteLiteral('{"row_key":"')); // true
 * literalAt(view, 1, view.byteLength, byteLiteral('{"row_key":"')); // false
 */
export function literalAt(view: DataView, i: number, limit: number, literal: ByteLiteral): boolean {
  return (
    i + literal.length <= limit &&
    view.getInt32(i, true) === literal.w0 &&
    view.getInt32(i + literal.o1, true) === literal.w1 &&
    view.getInt32(i + literal.o2, true) === literal.w2 &&
    view.getInt32(i + literal.o3, true) === literal.w3
  );
}

const QUOTE = 34;
const BACKSLASH = 92;

/**
 * Index of the `"` that closes the JSON string body starting at byte `i` of `view`, when the body
 * holds no escape and no control character (every byte stands for itself); −1 when it does, or when
 * no `"` comes before `limit`. Bytes from 0x80 are plain: whatever UTF-8 they belong to, valid or
 * not, decodes to characters a JSON string may hold, and a byte below 0x80 always stands for itself.
 * Four bytes a step (a word with no `"`, `\` or byte below 0x20 is passed whole), then byte by byte.
 *
 * @example
 * const view = new DataView(new TextEncoder().encode('"Apple, Inc.","x"').buffer);
 * plainStringEnd(view, 1, view.byteLength);                               // 12
 * plainStringEnd(new DataView(new TextEncoder().encode('"a\\"b"').buffer), 1, 6); // -1 (an escape)
 */
export function plainStringEnd(view: DataView, i: number, limit: number): number {
  for (; i + 4 <= limit; i += 4) {
    const w = view.getInt32(i, true);
    const q = w ^ 0x22222222;
    const s = w ^ 0x5c5c5c5c;
    // The high bit of a byte lane is set when that byte is below 0x20, a quote or a backslash (the
    // classic "has a zero byte" test on w, and on w with every lane xor'ed with 0x22 or 0x5c), or
    // when a lane below it is: a borrow only carries upwards, so the lowest flagged lane is the
    // first such byte.
    const m = (((w - 0x20202020) & ~w) | ((q - 0x01010101) & ~q) | ((s - 0x01010101) & ~s)) & 0x80808080;
    if (m !== 0) {
      const k = i + ((31 - Math.clz32(m & -m)) >>> 3);
      return view.getUint8(k) === QUOTE ? k : -1;
    }
  }
  for (; i < limit; i++) {
    const b = view.getUint8(i);
    if (b === QUOTE) return i;
    if (b < 0x20 || b === BACKSLASH) return -1;
  }
  return -1;
}

/**
 * Index after the run of decimal digits (ASCII `0`–`9`) starting at byte `i` of `view`, below
 * `limit`: four bytes a step, as {@link plainStringEnd}.
 *
 * @example
 * const view = new DataView(new TextEncoder().encode('"time":1794780001973,').buffer);
 * digitsEnd(view, 7, view.byteLength); // 20
 */
export function digitsEnd(view: DataView, i: number, limit: number): number {
  for (; i + 4 <= limit; i += 4) {
    const w = view.getInt32(i, true);
    // A lane's high bit is set when its byte is below "0" or from 0xb0 (first term), or in
    // ":"…0xb9 (second); a borrow or carry only crosses upwards from a flagged lane, so the
    // lowest flagged lane is the first byte that is not a digit.
    const m = ((w - 0x30303030) | (w + 0x46464646)) & 0x80808080;
    if (m !== 0) return i + ((31 - Math.clz32(m & -m)) >>> 3);
  }
  while (i < limit && (view.getUint8(i) - 48) >>> 0 <= 9) i++;
  return i;
}
