import { DecodeError } from "../errors/DecodeError.ts";
import { HEX_LOWER, hexDigit } from "./hexDigit.ts";

const COLON = 58;
const DASH = 45;
const DOT = 46;
const HEX_CHARS = "0123456789abcdef";

/**
 * True when `mac` is already in normal form (`aa:bb:cc:dd:ee:ff`, lowercase).
 * Unrolled charCode reads, no allocation: the service sends normal MACs, so this is the hot
 * path. Non-digits read as −1 (every bit set), so one sign test covers all twelve digits.
 */
function isNormal(mac: string): boolean {
  return (
    mac.length === 17 &&
    mac.charCodeAt(2) === COLON &&
    mac.charCodeAt(5) === COLON &&
    mac.charCodeAt(8) === COLON &&
    mac.charCodeAt(11) === COLON &&
    mac.charCodeAt(14) === COLON &&
    (HEX_LOWER[mac.charCodeAt(0)]! |
      HEX_LOWER[mac.charCodeAt(1)]! |
      HEX_LOWER[mac.charCodeAt(3)]! |
      HEX_LOWER[mac.charCodeAt(4)]! |
      HEX_LOWER[mac.charCodeAt(6)]! |
      HEX_LOWER[mac.charCodeAt(7)]! |
      HEX_LOWER[mac.charCodeAt(9)]! |
      HEX_LOWER[mac.charCodeAt(10)]! |
      HEX_LOWER[mac.charCodeAt(12)]! |
      HEX_LOWER[mac.charCodeAt(13)]! |
      HEX_LOWER[mac.charCodeAt(15)]! |
      HEX_LOWER[mac.charCodeAt(16)]!) >=
      0
  );
}

/** Lowercase colon form of 12 hex digits read from `mac` at the given positions. */
function rebuild(mac: string, positions: readonly number[]): string | undefined {
  let out = "";
  for (let k = 0; k < 12; k++) {
    const d = hexDigit(mac.charCodeAt(positions[k]!));
    if (d < 0) return undefined;
    if (k > 0 && k % 2 === 0) out += ":";
    out += HEX_CHARS[d];
  }
  return out;
}

/** Hex digit positions of each accepted layout. */
const SEPARATED = [0, 1, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16];
const DOTTED = [0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13];
const BARE = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

/**
 * `mac` in normal form, or `undefined` when it is not a MAC in an accepted layout.
 * Returns the same string (no allocation) when it is already normal. Internal: the
 * decoder uses it to report a bad MAC without the cost of an exception.
 *
 * @example
 * toNormalMac("AA-BB-CC-DD-EE-FF"); // "aa:bb:cc:dd:ee:ff"
 * toNormalMac("aa:bb");             // undefined
 */
export function toNormalMac(mac: string): string | undefined {
  if (isNormal(mac)) return mac;
  switch (mac.length) {
    case 17: {
      const sep = mac.charCodeAt(2);
      if (sep !== COLON && sep !== DASH) return undefined;
      for (let i = 5; i < 17; i += 3) if (mac.charCodeAt(i) !== sep) return undefined;
      return rebuild(mac, SEPARATED);
    }
    case 14:
      if (mac.charCodeAt(4) !== DOT || mac.charCodeAt(9) !== DOT) return undefined;
      return rebuild(mac, DOTTED);
    case 12:
      return rebuild(mac, BARE);
    default:
      return undefined;
  }
}

/**
 * Normalises a MAC address to lowercase colon form (`aa:bb:cc:dd:ee:ff`). Accepts
 * `AA:BB:CC:DD:EE:FF` and `aa-bb-cc-dd-ee-ff` (one separator throughout), Cisco-style
 * `aabb.ccdd.eeff` and bare `aabbccddeeff`, in either case. Anything else, a non-string
 * included, throws a {@link DecodeError}. An already normal MAC is returned as is, without
 * allocating, which is the common case for the service's records.
 *
 * @example
 * normalizeMac("F0:18:98:12:34:56"); // "f0:18:98:12:34:56"
 * normalizeMac("f018.9812.3456");    // "f0:18:98:12:34:56"
 * normalizeMac("F01898123456");      // "f0:18:98:12:34:56"
 */
export function normalizeMac(mac: string): string {
  const normal = typeof mac === "string" ? toNormalMac(mac) : undefined;
  if (normal === undefined) {
    throw new DecodeError("mac", mac, "expected 6 hex octets as aa:bb:cc:dd:ee:ff, aa-bb-cc-dd-ee-ff, aabb.ccdd.eeff or aabbccddeeff");
  }
  return normal;
}

/** Low nibble of the first octet: in every accepted layout it is the second character. */
function firstOctetLowNibble(mac: string): number {
  return hexDigit(normalizeMac(mac).charCodeAt(1));
}

/**
 * True when the MAC is locally administered: bit 0x02 of the first octet is set. Phones
 * use such addresses for privacy (MAC randomisation), so they identify a device only for
 * a while. Accepts any layout {@link normalizeMac} accepts; throws a {@link DecodeError}
 * otherwise.
 *
 * @example
 * isLocallyAdministered("da:a1:19:00:00:01"); // true  (0xda = 1101 1010)
 * isLocallyAdministered("f0:18:98:12:34:56"); // false (0xf0 = 1111 0000)
 */
export function isLocallyAdministered(mac: string): boolean {
  return (firstOctetLowNibble(mac) & 2) !== 0;
}

/**
 * True when the MAC is a group (multicast) address: bit 0x01 of the first octet is set.
 * Accepts any layout {@link normalizeMac} accepts; throws a {@link DecodeError} otherwise.
 *
 * @example
 * isMulticast("01:00:5e:00:00:fb"); // true
 * isMulticast("f0:18:98:12:34:56"); // false
 */
export function isMulticast(mac: string): boolean {
  return (firstOctetLowNibble(mac) & 1) !== 0;
}

/**
 * True when the MAC looks randomised: locally administered and unicast (bits 0x02 set,
 * 0x01 clear in the first octet). Such a device is counted as a separate series in
 * analytics. Accepts any layout {@link normalizeMac} accepts; throws a
 * {@link DecodeError} otherwise.
 *
 * @example
 * isRandomized("da:a1:19:00:00:01"); // true
 * isRandomized("03:00:00:00:00:01"); // false (local but multicast)
 */
export function isRandomized(mac: string): boolean {
  return (firstOctetLowNibble(mac) & 3) === 2;
}
