/**
 * Hex digit lookup tables shared by the codec's charCode loops (RTS, MAC, OUI prefixes).
 * A table read is cheaper than a regex or `parseInt` per character and allocates nothing.
 * Internal: not exported from the package.
 */

/** `HEX_ANY[code]` is the value of hex digit `code` (either case), or −1. Indexed by char code < 128. */
const HEX_ANY = new Int8Array(128).fill(-1);
/** `HEX_LOWER[code]` is the value of lowercase hex digit `code`, or −1 (uppercase is −1). */
const HEX_LOWER = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) {
  HEX_ANY[48 + i] = i;
  HEX_LOWER[48 + i] = i;
}
for (let i = 0; i < 6; i++) {
  HEX_ANY[97 + i] = 10 + i;
  HEX_LOWER[97 + i] = 10 + i;
  HEX_ANY[65 + i] = 10 + i;
}

/**
 * Value (0–15) of the hex digit with char code `code`, either case; −1 if it is not one.
 *
 * @example
 * hexDigit("F".charCodeAt(0)); // 15
 * hexDigit("g".charCodeAt(0)); // -1
 */
export function hexDigit(code: number): number {
  // `| 0` keeps an out-of-range read (undefined) from leaking a non-number.
  return code < 128 ? HEX_ANY[code]! | 0 : -1;
}

/**
 * Value (0–15) of the lowercase hex digit with char code `code`; −1 for anything else,
 * uppercase included (RTS and normalised MACs are lowercase by definition).
 *
 * @example
 * lowerHexDigit("f".charCodeAt(0)); // 15
 * lowerHexDigit("F".charCodeAt(0)); // -1
 */
export function lowerHexDigit(code: number): number {
  return code < 128 ? HEX_LOWER[code]! | 0 : -1;
}
