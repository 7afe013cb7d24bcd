const COLON = 58;

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

/**
 * The normal form (lowercase, colons) of the MAC whose 48 bits are `high` (the first three
 * octets) and `low` (the last three), as one string per MAC: interned by value, so every spelling
 * of one MAC the byte reader reads gives the same string, made once (per thread, until the table's
 * 131 072 MACs are reached and it starts again).
 *
 * @example
 * internMac(0xf01898, 0x123456);                                  // "f0:18:98:12:34:56"
 * internMac(0xf01898, 0x123456) === internMac(0xf01898, 0x123456); // true: the same string
 */
export function internMac(high: number, low: number): string {
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
    return internMac(high, low);
  }
  const text = normalText(high, low);
  tableHigh[slot] = high;
  tableLow[slot] = low;
  tableText[slot] = text;
  tableCount++;
  return text;
}
