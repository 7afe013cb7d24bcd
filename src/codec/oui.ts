import { DecodeError } from "../errors/DecodeError.ts";
import { HEX_LOWER } from "./hexDigit.ts";
import { toNormalMac } from "./mac.ts";
import { OUI_TABLE } from "./ouiTable.ts";
import { REGISTRATION_AUTHORITY, unpackPrefixes } from "./packOui.ts";

/**
 * MA-L value meaning "look at the longer prefixes first". Starts with NUL, which no vendor name
 * does, so one cache read decides the common case.
 */
const SUBDIVIDED = "\u0000subdivided";

// The packed registry's lists, unpacked once for binary searches.
const { names } = OUI_TABLE;
const blockPrefixes = unpackPrefixes(OUI_TABLE.blockPrefixes);
const mediumPrefixes = unpackPrefixes(OUI_TABLE.mediumPrefixes);
const smallPrefixes = unpackPrefixes(OUI_TABLE.smallPrefixes);
const subdivided = unpackPrefixes(OUI_TABLE.subdivided);

/** Index of `value` in the ascending `sorted`, or −1. */
function find(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v < value) lo = mid + 1;
    else if (v > value) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** The vendor listed for `prefix` in one of the packed lists, or undefined. */
function nameIn(prefixes: Float64Array, nameIndices: readonly number[], prefix: number): string | undefined {
  const i = find(prefixes, prefix);
  return i < 0 ? undefined : names[nameIndices[i]!];
}

/**
 * 24-bit prefix → its MA-L value, for each prefix searched once: a miss of the small cache below
 * (two prefixes on one slot) is then a map read rather than two searches. Bench row 1's 3 000
 * universal devices have 2 239 prefixes, 413 slots of them shared: without this map its decoding
 * took ~5 % longer.
 */
const blocks = new Map<number, string | undefined>();

/** The MA-L value of a 24-bit prefix: its vendor, undefined, or SUBDIVIDED (look at longer prefixes first). */
function blockOf(p24: number): string | undefined {
  let value = blocks.get(p24);
  if (value !== undefined || blocks.has(p24)) return value;
  value = find(subdivided, p24) >= 0 ? SUBDIVIDED : nameIn(blockPrefixes, OUI_TABLE.blockNames, p24);
  blocks.set(p24, value);
  return value;
}

/** The vendor under a subdivided block: MA-S (36 bits), then MA-M (28 bits), then the block's own vendor unless it is the IEEE's. */
function underBlockOf(p24: number, p28: number, p36: number): string | undefined {
  const own = nameIn(blockPrefixes, OUI_TABLE.blockNames, p24);
  return nameIn(smallPrefixes, OUI_TABLE.smallNames, p36) ?? nameIn(mediumPrefixes, OUI_TABLE.mediumNames, p28) ?? (own === REGISTRATION_AUTHORITY ? undefined : own);
}

/**
 * A small direct-mapped cache of 24-bit prefix → MA-L value in front of the searches. The list
 * holds ~40,000 prefixes, so a search reads ~16 of them, most of which miss the CPU caches; a
 * shop sees far fewer distinct prefixes, and 48 KiB of recent ones stay hot.
 * The values are immutable, so one cache serves every caller.
 */
const CACHE_SIZE = 4096;
const cachedPrefix = new Int32Array(CACHE_SIZE).fill(-1);
const cachedValue: Array<string | undefined> = new Array<string | undefined>(CACHE_SIZE).fill(undefined);

/**
 * Vendor of a MAC already in normal form (no validation): the decoder's hot path. Reads
 * hex digits by char code into numbers, so it allocates nothing. Internal.
 *
 * @example
 * vendorOfNormal("f0:18:98:12:34:56"); // "Apple, Inc."
 */
export function vendorOfNormal(mac: string): string | undefined {
  const d1 = HEX_LOWER[mac.charCodeAt(1)]!;
  // Locally administered: the prefix was not assigned by the IEEE, whatever the list says.
  if ((d1 & 2) !== 0) return undefined;
  const p24 =
    (HEX_LOWER[mac.charCodeAt(0)]! << 20) |
    (d1 << 16) |
    (HEX_LOWER[mac.charCodeAt(3)]! << 12) |
    (HEX_LOWER[mac.charCodeAt(4)]! << 8) |
    (HEX_LOWER[mac.charCodeAt(6)]! << 4) |
    HEX_LOWER[mac.charCodeAt(7)]!;
  const slot = (p24 ^ (p24 >>> 12)) & (CACHE_SIZE - 1);
  let vendor: string | undefined;
  if (cachedPrefix[slot] === p24) {
    vendor = cachedValue[slot];
  } else {
    vendor = blockOf(p24);
    cachedPrefix[slot] = p24;
    cachedValue[slot] = vendor;
  }
  if (vendor !== SUBDIVIDED) return vendor;
  const p28 = (p24 << 4) | HEX_LOWER[mac.charCodeAt(9)]!;
  const p36 = p28 * 256 + (HEX_LOWER[mac.charCodeAt(10)]! << 4) + HEX_LOWER[mac.charCodeAt(12)]!;
  return underBlockOf(p24, p28, p36);
}

/**
 * The IEEE-registered vendor of a MAC address, from the `oui-data` copy of the IEEE
 * MA-L/MA-M/MA-S registries: the longest assigned prefix wins (36-bit MA-S, then 28-bit
 * MA-M, then 24-bit MA-L), and the vendor is the first line of its entry. `undefined` for
 * a locally administered (e.g. randomised) MAC, whose prefix means nothing even when the
 * list has it, for an unassigned prefix, and for a block the IEEE subdivided
 * ("IEEE Registration Authority") when no longer prefix matches. "Private" is returned as
 * listed (an assignee that asked for its name to be withheld), and so is the IEEE's name on
 * the one 36-bit block it assigned to itself (there it is the assignee, not a pointer).
 *
 * Accepts any layout {@link normalizeMac} accepts; throws a {@link DecodeError} otherwise.
 * Each prefix is found once by binary search of the packed registry (`OUI_TABLE`) and then
 * remembered, behind a cache of recent 24-bit prefixes.
 *
 * @example
 * vendorOf("F0-18-98-12-34-56"); // "Apple, Inc." (24-bit MA-L)
 * vendorOf("10:06:48:0a:bc:de"); // "FLEXTRONICS TECHNOLOGIES (INDIA) PVT LTD" (28-bit MA-M)
 * vendorOf("70:b3:d5:00:1a:bc"); // "SOREDI touch systems GmbH" (36-bit MA-S)
 * vendorOf("da:a1:19:00:00:01"); // undefined (locally administered)
 */
export function vendorOf(mac: string): string | undefined {
  const normal = typeof mac === "string" ? toNormalMac(mac) : undefined;
  if (normal === undefined) throw new DecodeError("mac", mac, "expected a MAC address");
  return vendorOfNormal(normal);
}
