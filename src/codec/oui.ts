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

interface OuiTable {
  /** 24-bit MA-L prefix → vendor, or {@link SUBDIVIDED}. */
  readonly maL: Map<number, string>;
  /** Vendor of a subdivided MA-L block, if it is not the IEEE placeholder. */
  readonly maLUnder: Map<number, string>;
  /** 28-bit MA-M prefix → vendor. */
  readonly maM: Map<number, string>;
  /** 36-bit MA-S prefix → vendor (beyond 32 bits, so a double key, which Map handles). */
  readonly maS: Map<number, string>;
}

let table: OuiTable | undefined;

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

/**
 * Builds the numeric-keyed maps, once, on the first lookup. Vendor names are interned, so
 * the ~1,500 Apple prefixes share one string and equal vendors compare by identity.
 */
function load(): OuiTable {
  const data = ouiData as unknown as Readonly<Record<string, unknown>>; // the registry's JSON: prefix → "name\naddress…"
  const names = new Map<string, string>();
  const maL = new Map<number, string>();
  const maLUnder = new Map<number, string>();
  const maM = new Map<number, string>();
  const maS = new Map<number, string>();
  const parents = new Set<number>();
  for (const key of Object.keys(data)) {
    const entry = data[key];
    const prefix = keyValue(key);
    if (typeof entry !== "string" || prefix < 0) continue;
    const newline = entry.indexOf("\n");
    const raw = (newline < 0 ? entry : entry.slice(0, newline)).trim();
    if (raw === "") continue;
    let name = names.get(raw);
    if (name === undefined) names.set(raw, (name = raw));
    switch (key.length) {
      case 6:
        if (name === REGISTRATION_AUTHORITY) parents.add(prefix);
        else maL.set(prefix, name);
        break;
      case 7:
        maM.set(prefix, name);
        parents.add(prefix >>> 4);
        break;
      case 9:
        maS.set(prefix, name);
        parents.add(Math.floor(prefix / 4096));
        break;
    }
  }
  for (const prefix of parents) {
    const own = maL.get(prefix);
    if (own !== undefined) maLUnder.set(prefix, own);
    maL.set(prefix, SUBDIVIDED);
  }
  return { maL, maLUnder, maM, maS };
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
    vendor = (table ??= load()).maL.get(p24);
    cachedPrefix[slot] = p24;
    cachedValue[slot] = vendor;
  }
  if (vendor !== SUBDIVIDED) return vendor;
  // Under a subdivided block: MA-S (36 bits) first, then MA-M (28 bits).
  const t = (table ??= load());
  const p28 = (p24 << 4) | HEX_LOWER[mac.charCodeAt(9)]!;
  const p36 = p28 * 256 + (HEX_LOWER[mac.charCodeAt(10)]! << 4) + HEX_LOWER[mac.charCodeAt(12)]!;
  return t.maS.get(p36) ?? t.maM.get(p28) ?? t.maLUnder.get(p24);
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
 * The list (~54,000 prefixes) is turned into maps on the first call (tens of ms); lookups
 * then cost a map read or, under a subdivided block, three.
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
