// oui-data ships one JSON file; a JSON import (with the `type` attribute) loads it the same
// way under Node ≥ 20.10, Deno and bundlers, with no Node-only API.
import ouiData from "oui-data" with { type: "json" };
import { DecodeError } from "../errors/DecodeError.ts";
import { HEX_LOWER, hexDigit } from "./hexDigit.ts";
import { toNormalMac } from "./mac.ts";

/**
 * The IEEE's own name on MA-L blocks it subdivided into MA-M (28-bit) and MA-S (36-bit)
 * assignments: not a vendor, only a pointer to the longer prefixes.
 */
const REGISTRATION_AUTHORITY = "IEEE Registration Authority";
/**
 * MA-L map value meaning "look at the longer prefixes first". Starts with NUL, which no
 * vendor name does, so one map read decides the common case.
 */
const SUBDIVIDED = "\u0000subdivided";

/**
 * The registry's JSON: prefix (uppercase hex, 6, 7 or 9 digits) → "name\naddress…". Read entry by
 * entry as MACs need them: turning all ~54,000 into maps up front cost ~50 ms of every start
 * (of `footfall analyze` and of each of its decode threads), and a shop sees a few hundred.
 */
const registry = ouiData as unknown as Readonly<Record<string, unknown>>; // the registry's JSON, as parsed

/** Vendor names by their text, so the ~1,500 Apple prefixes share one string and equal vendors compare by identity. */
const names = new Map<string, string>();
/** 24-bit prefix → vendor, undefined, or {@link SUBDIVIDED}: each prefix read once. */
const blocks = new Map<number, string | undefined>();
/** 36-bit prefix under a subdivided block → vendor or undefined. */
const underBlocks = new Map<number, string | undefined>();
/** MA-L prefixes with longer prefixes under them, or subdivided by the IEEE; found on the first lookup. */
let subdivided: Set<number> | undefined;

const UPPER_HEX = "0123456789ABCDEF";

/** The registry key of `prefix` written with `digits` uppercase hex digits (a 36-bit prefix is beyond 32 bits: no shifts). */
function keyOf(prefix: number, digits: number): string {
  let key = "";
  for (let i = digits - 1; i >= 0; i--) key += UPPER_HEX[Math.floor(prefix / 16 ** i) % 16];
  return key;
}

/** Numeric value of hex `key` (the registry's keys are uppercase), or −1. */
function keyValue(key: string): number {
  let value = 0;
  for (let i = 0; i < key.length; i++) {
    const d = hexDigit(key.charCodeAt(i));
    if (d < 0) return -1;
    value = value * 16 + d;
  }
  return value;
}

/** The vendor an entry names (its first line, trimmed, interned), or undefined for none. */
function nameAt(key: string): string | undefined {
  const entry = Object.hasOwn(registry, key) ? registry[key] : undefined;
  if (typeof entry !== "string") return undefined;
  const newline = entry.indexOf("\n");
  const raw = (newline < 0 ? entry : entry.slice(0, newline)).trim();
  if (raw === "") return undefined;
  let name = names.get(raw);
  if (name === undefined) names.set(raw, (name = raw));
  return name;
}

/** One pass over the keys alone (names are read only for the IEEE's own MA-L entries). */
function findSubdivided(): Set<number> {
  const out = new Set<number>();
  for (const key of Object.keys(registry)) {
    if (key.length === 7 || key.length === 9) {
      const prefix = keyValue(key);
      const entry = registry[key];
      // A name that starts with a printable character is not empty (the full check only otherwise).
      const named = typeof entry === "string" && (entry.charCodeAt(0) > 32 || nameAt(key) !== undefined);
      if (prefix >= 0 && named) out.add(key.length === 7 ? prefix >>> 4 : Math.floor(prefix / 4096));
    } else if (key.length === 6) {
      const entry = registry[key];
      if (typeof entry === "string" && entry.startsWith(REGISTRATION_AUTHORITY) && nameAt(key) === REGISTRATION_AUTHORITY) {
        const prefix = keyValue(key);
        if (prefix >= 0) out.add(prefix);
      }
    }
  }
  return out;
}

/** The MA-L value of a 24-bit prefix: its vendor, undefined, or SUBDIVIDED (look at longer prefixes first). */
function blockOf(p24: number): string | undefined {
  let value = blocks.get(p24);
  if (value !== undefined || blocks.has(p24)) return value;
  value = (subdivided ??= findSubdivided()).has(p24) ? SUBDIVIDED : nameAt(keyOf(p24, 6));
  blocks.set(p24, value);
  return value;
}

/** The vendor under a subdivided block: MA-S (36 bits), then MA-M (28 bits), then the block's own vendor unless it is the IEEE's. */
function underBlockOf(p24: number, p28: number, p36: number): string | undefined {
  let value = underBlocks.get(p36);
  if (value !== undefined || underBlocks.has(p36)) return value;
  const own = nameAt(keyOf(p24, 6));
  value = nameAt(keyOf(p36, 9)) ?? nameAt(keyOf(p28, 7)) ?? (own === REGISTRATION_AUTHORITY ? undefined : own);
  underBlocks.set(p36, value);
  return value;
}

/**
 * A small direct-mapped cache of 24-bit prefix → MA-L map value in front of the big map.
 * The map holds ~40,000 prefixes (about a megabyte), so a read usually misses the CPU
 * caches; a shop sees far fewer distinct prefixes, and 48 KiB of recent ones stay hot.
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
 * The first call finds the subdivided blocks in one pass over the list's keys (15–50 ms, by
 * machine); each prefix is then read from the list once and remembered, so a lookup costs a map
 * read.
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
