/**
 * Hex digit lookup tables shared by the codec's charCode loops (RTS, MAC, OUI prefixes).
 * A table read is cheaper than a regex or `parseInt` per character and allocates nothing.
 * The tables cover every UTF-16 code unit (64 KiB each, of which hot loops touch the first
 * cache lines), so a read never goes out of bounds and needs no range check. Internal:
 * not exported from the package.
 */

/** `HEX_ANY[code]` is the value (0–15) of hex digit `code`, either case, or −1 ({@link hexDigit}'s table). */
const HEX_ANY: Int8Array = new Int8Array(65536).fill(-1);
/**
 * `HEX_LOWER[code]` is the value (0–15) of lowercase hex digit `code`, or −1 (uppercase
 * included: RTS and normalised MACs are lowercase by definition).
 *
 * @example
 * HEX_LOWER["F".charCodeAt(0)]; // -1
 */
export const HEX_LOWER: Int8Array = new Int8Array(65536).fill(-1);
/**
 * `HEX_CASED[code]` is the value (0–15) of a digit or lowercase hex digit `code`, the value
 * + 16 of an uppercase one (`A`–`F`: bit 4 marks the case), or −1. OR-ing several reads is
 * negative when one is not a hex digit, and has bit 4 set when one is uppercase: the RTS reader
 * tells footfall's lowercase spelling from a service's uppercase one in the same pass.
 *
 * @example
 * HEX_CASED["F".charCodeAt(0)]; // 31
 */
export const HEX_CASED: Int8Array = new Int8Array(65536).fill(-1);
for (let i = 0; i < 10; i++) {
  HEX_ANY[48 + i] = i;
  HEX_LOWER[48 + i] = i;
  HEX_CASED[48 + i] = i;
}
for (let i = 0; i < 6; i++) {
  HEX_ANY[97 + i] = 10 + i;
  HEX_LOWER[97 + i] = 10 + i;
  HEX_CASED[97 + i] = 10 + i;
  HEX_ANY[65 + i] = 10 + i;
  HEX_CASED[65 + i] = 16 + 10 + i;
}

/**
 * Value (0–15) of the hex digit with char code `code`, either case; −1 if it is not one
 * (or `code` is not a code unit, e.g. the NaN of `charCodeAt` past the end).
 *
 * @example
 * hexDigit("F".charCodeAt(0)); // 15
 * hexDigit("g".charCodeAt(0)); // -1
 */
export function hexDigit(code: number): number {
  return HEX_ANY[code] ?? -1;
}

/**
 * Value (0–15) of the lowercase hex digit with char code `code`; −1 for anything else,
 * uppercase included.
 *
 * @example
 * lowerHexDigit("f".charCodeAt(0)); // 15
 * lowerHexDigit("F".charCodeAt(0)); // -1
 */
export function lowerHexDigit(code: number): number {
  return HEX_LOWER[code] ?? -1;
}
