import { byteLiteral, digitsEnd, literalAt, plainStringEnd, type ByteLiteral } from "./byteWords.ts";

const QUOTE = 34;
const COMMA = 44;
const COLON = 58;
const CLOSE = 125;
const MINUS = 45;
const PLUS = 43;
const DOT = 46;
const ZERO = 48;
/** "true", "fals" ("false" is that and an "e") and "null" as little-endian words. */
const TRUE = 0x65757274;
const FALS = 0x736c6166;
const NULL = 0x6c6c756e;
/** `,"` and `":` as little-endian 16-bit words. */
const FIELD_OPEN = COMMA | (QUOTE << 8);
const KEY_CLOSE = QUOTE | (COLON << 8);

/**
 * The service's six keys: a further field must not repeat one (JSON.parse keeps the last, so the
 * record would not be of the usual shape). "ts" is told by a 16-bit load, the others as literals.
 */
const TS = 0x7374;
const RSSI = byteLiteral("rssi");
const LOCAL = byteLiteral("local");
const ROW_KEY = byteLiteral("row_key");
const DEVICE_ID = byteLiteral("device_id");
const SQUARE_MAC = byteLiteral("square_mac");

/** True when the bytes `view[from, to)` spell one of the service's six keys. */
function isServiceKey(view: DataView, from: number, to: number): boolean {
  switch (to - from) {
    case 2:
      return view.getUint16(from, true) === TS;
    case 4:
      return literalAt(view, from, to, RSSI);
    case 5:
      return literalAt(view, from, to, LOCAL);
    case 7:
      return literalAt(view, from, to, ROW_KEY);
    case 9:
      return literalAt(view, from, to, DEVICE_ID);
    case 10:
      return literalAt(view, from, to, SQUARE_MAC);
    default:
      return false;
  }
}

/**
 * Index after the plain JSON value at `i` — a string without escapes, a number in JSON's grammar,
 * `true`, `false` or `null` — or −1 (an object, an array, whitespace, anything else).
 */
function plainValueEnd(view: DataView, i: number, limit: number): number {
  if (i >= limit) return -1;
  const b = view.getUint8(i);
  if (b === QUOTE) {
    const end = plainStringEnd(view, i + 1, limit);
    return end < 0 ? -1 : end + 1;
  }
  if (i + 4 <= limit) {
    const w = view.getInt32(i, true);
    if (w === TRUE || w === NULL) return i + 4;
    if (w === FALS) return i + 4 < limit && view.getUint8(i + 4) === 0x65 ? i + 5 : -1;
  }
  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  if (b === MINUS) i++;
  if (i >= limit) return -1;
  const first = view.getUint8(i);
  if (first === ZERO) i++;
  else if ((first - ZERO) >>> 0 <= 9) i = digitsEnd(view, i + 1, limit);
  else return -1;
  if (i < limit && view.getUint8(i) === DOT) {
    const from = i + 1;
    i = digitsEnd(view, from, limit);
    if (i === from) return -1;
  }
  if (i < limit && (view.getUint8(i) | 0x20) === 0x65) {
    i++;
    if (i < limit && (view.getUint8(i) === PLUS || view.getUint8(i) === MINUS)) i++;
    const from = i;
    i = digitsEnd(view, from, limit);
    if (i === from) return -1;
  }
  return i;
}

/**
 * The `,"key":` of each further field of the last record read in full, in order, as literals: the
 * next record most likely has the same keys (an exporter writes one shape), and comparing a key as
 * a literal (four word loads) costs half of reading it as a string and checking it is none of the
 * service's. A literal is learned only from a key the general check below has passed (plain, not a
 * service key), so a key that matches it passes that check too: the rule is the same, one key at a
 * time. Keys of up to 12 ASCII characters are learned (a literal holds up to 16 bytes).
 *
 * Kept flat, a {@link ByteLiteral}'s length, words and offsets in LEARNED_WORDS ints a field:
 * reading them from one Int32Array rather than from an object per field takes 13 % off the check
 * of a backfill line's seven added fields (docs/performance.md).
 */
let learned = new Int32Array(8 * 8);
/** Ints of `learned` a field: length, w0–w3, o1–o3. */
const LEARNED_WORDS = 8;
/** Fields learned, from the first. */
let learnedFields = 0;
/** Longest key learned, characters. */
const MAX_LEARNED_KEY = 12;

/** Stores `literal` as learned field `field` (growing the table as needed). */
function learn(field: number, literal: ByteLiteral): void {
  const at = field * LEARNED_WORDS;
  if (at + LEARNED_WORDS > learned.length) {
    const grown = new Int32Array(learned.length * 2);
    grown.set(learned);
    learned = grown;
  }
  learned[at] = literal.length;
  learned[at + 1] = literal.w0;
  learned[at + 2] = literal.w1;
  learned[at + 3] = literal.w2;
  learned[at + 4] = literal.w3;
  learned[at + 5] = literal.o1;
  learned[at + 6] = literal.o2;
  learned[at + 7] = literal.o3;
  learnedFields = field + 1;
}

/** The literal `,"key":` of the key at `view[from, to)`, or undefined when it cannot be one. */
function fieldLiteral(view: DataView, from: number, to: number): ByteLiteral | undefined {
  if (to - from > MAX_LEARNED_KEY) return undefined;
  let key = "";
  for (let k = from; k < to; k++) {
    const b = view.getUint8(k);
    if (b >= 0x80) return undefined;
    key += String.fromCharCode(b);
  }
  return byteLiteral(`,"${key}":`);
}

/**
 * Checks the end of a signal record from byte `at` of `view`: further fields with plain values,
 * each `,"key":value` without whitespace — the key not one of the service's six (a repeated key
 * overrides the first in `JSON.parse`, so that record is not of the usual shape), the value a
 * string without escapes or control characters, a JSON number, `true`, `false` or `null` — then
 * the object's `}`. Returns the index after that `}`, or −1 when the bytes are not of that form
 * (they may still be JSON: the caller then reads the line with `JSON.parse`). Those are the fields
 * `footfall signals backfill` adds (shopId, rts, time, device, sensor, randomized, vendor) and any
 * others of that form; only their syntax is checked, as `JSON.parse` would, and nothing is built.
 * Reads no byte at or after `limit` (≤ the view's length).
 *
 * @example
 * const view = (text: string): DataView => new DataView(new TextEncoder().encode(text).buffer);
 * skipPlainFields(view(',"shopId":101,"vendor":"Apple, Inc.","time":1.5e3}\n'), 0, 51); // 50
 * skipPlainFields(view(',"rssi":-1}'), 0, 11);                                          // -1 (a service key again)
 * skipPlainFields(view(',"x":[1]}'), 0, 9);                                             // -1 (not plain: JSON.parse's)
 * skipPlainFields(view("}"), 0, 1);                                                     // 1
 */
export function skipPlainFields(view: DataView, at: number, limit: number): number {
  let i = at;
  // The fields whose keys are the last record's, as far as they are.
  let field = 0;
  const table = learned;
  for (; field < learnedFields; field++) {
    const k = field * LEARNED_WORDS;
    const length = table[k]!;
    // literalAt's four word compares, written out on the flat words: a helper taking the words
    // as arguments is not inlined here, and made the check slower than the objects (510 ns a line).
    if (
      !(
        i + length <= limit &&
        view.getInt32(i, true) === table[k + 1] &&
        view.getInt32(i + table[k + 5]!, true) === table[k + 2] &&
        view.getInt32(i + table[k + 6]!, true) === table[k + 3] &&
        view.getInt32(i + table[k + 7]!, true) === table[k + 4]
      )
    ) {
      break;
    }
    i = plainValueEnd(view, i + length, limit);
    if (i < 0) return -1;
  }
  // The others, each checked in full, and learned for the next record.
  let learning = true;
  for (;;) {
    if (i >= limit) return -1;
    const b = view.getUint8(i);
    if (b === CLOSE) {
      if (learning) learnedFields = field;
      return i + 1;
    }
    // `,"` opens a field, `":` ends its key.
    if (i + 2 > limit || view.getUint16(i, true) !== FIELD_OPEN) return -1;
    const keyFrom = i + 2;
    const keyEnd = plainStringEnd(view, keyFrom, limit);
    if (keyEnd < 0 || keyEnd + 2 > limit || view.getUint16(keyEnd, true) !== KEY_CLOSE || isServiceKey(view, keyFrom, keyEnd)) return -1;
    i = plainValueEnd(view, keyEnd + 2, limit);
    if (i < 0) return -1;
    if (learning) {
      const literal = fieldLiteral(view, keyFrom, keyEnd);
      if (literal === undefined) {
        // The keys after one that cannot be a literal are not learned (nor is it).
        learnedFields = field;
        learning = false;
      } else {
        learn(field++, literal);
      }
    }
  }
}
