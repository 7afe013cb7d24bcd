import { hexDigit } from "./hexDigit.ts";

/**
 * The IEEE's own name on MA-L blocks it subdivided into MA-M (28-bit) and MA-S (36-bit)
 * assignments: not a vendor, only a pointer to the longer prefixes.
 *
 * @example
 * REGISTRATION_AUTHORITY; // "IEEE Registration Authority"
 */
export const REGISTRATION_AUTHORITY = "IEEE Registration Authority";

/**
 * The IEEE registry as the vendor lookup reads it: each assigned prefix's vendor name (its
 * entry's first line, trimmed; the postal address is dropped) in a few plain arrays, each list of
 * prefixes ascending and written as the steps from one to the next (the first from 0), which
 * keeps the numbers short. Built by {@link packOui}; plain JSON, so the build writes it into a
 * module (`npm run build`), and a start parses ~1.1 MB of arrays instead of the registry's 5.6 MB
 * object of 54 000 entries. Internal.
 *
 * @example
 * const table: PackedOui = packOui({ F01898: "Apple, Inc.\nCupertino" });
 * table.names; // ["Apple, Inc."]
 * table.blockPrefixes; // [0xf01898]
 */
export interface PackedOui {
  /**
   * Vendor names, each once (so ~1 500 Apple prefixes share one string). Each its own string, not
   * one text split at load: a name split off a text holding any character beyond Latin-1 is stored
   * two bytes a character, and so is every output line it is written into (the big shop-day's
   * NDJSON took a third longer).
   */
  readonly names: readonly string[];
  /** 24-bit (MA-L) prefixes with a vendor name: steps. */
  readonly blockPrefixes: readonly number[];
  /** Index among `names` of each of `blockPrefixes`. */
  readonly blockNames: readonly number[];
  /** 28-bit (MA-M) prefixes (steps) and their names' indices. */
  readonly mediumPrefixes: readonly number[];
  readonly mediumNames: readonly number[];
  /** 36-bit (MA-S) prefixes (steps) and their names' indices. */
  readonly smallPrefixes: readonly number[];
  readonly smallNames: readonly number[];
  /**
   * 24-bit prefixes to look under first (steps): those with a longer prefix assigned under them,
   * and those the IEEE subdivided (named {@link REGISTRATION_AUTHORITY}).
   */
  readonly subdivided: readonly number[];
}

const UPPER_HEX_KEY = /^[0-9A-F]+$/;

/**
 * Packs the `oui-data` registry (prefix in uppercase hex, 6, 7 or 9 digits → "name\naddress…")
 * into a {@link PackedOui}: the one reading of the registry's entries. An entry's vendor is the
 * first line of its text, trimmed; an entry with no name there is not an assignment. Keys of
 * other lengths, or not hex, are left out. Internal: `ouiTable.ts` packs the registry with it
 * when run from the sources, and the build packs it once into the compiled `ouiTable.js`.
 *
 * @param registry the registry's JSON, as parsed
 * @example
 * const table = packOui({ "100648": "IEEE Registration Authority\n…", "1006480": "KYTRONICS\n…" });
 * table.subdivided; // [0x100648]
 * table.mediumPrefixes; // [0x1006480]
 */
export function packOui(registry: Readonly<Record<string, unknown>>): PackedOui {
  const names: string[] = [];
  const nameIndex = new Map<string, number>();
  const lists = { 6: [] as [number, number][], 7: [] as [number, number][], 9: [] as [number, number][] };
  const subdivided = new Set<number>();
  for (const key of Object.keys(registry)) {
    const length = key.length;
    if (length !== 6 && length !== 7 && length !== 9) continue;
    const prefix = keyValue(key);
    const entry = registry[key];
    if (prefix < 0 || typeof entry !== "string") continue;
    const newline = entry.indexOf("\n");
    const name = (newline < 0 ? entry : entry.slice(0, newline)).trim();
    if (name === "") continue;
    if (length === 7) subdivided.add(prefix >>> 4);
    else if (length === 9) subdivided.add(Math.floor(prefix / 4096));
    else if (name === REGISTRATION_AUTHORITY) subdivided.add(prefix);
    // A lookup writes its keys in uppercase: a key in lowercase marks its block, but names nothing.
    if (!UPPER_HEX_KEY.test(key)) continue;
    let index = nameIndex.get(name);
    if (index === undefined) {
      index = names.length;
      names.push(name);
      nameIndex.set(name, index);
    }
    lists[length].push([prefix, index]);
  }
  const ascending = (list: [number, number][]) => list.sort((a, b) => a[0] - b[0]);
  const [blocks, medium, small] = [ascending(lists[6]), ascending(lists[7]), ascending(lists[9])];
  return {
    names,
    blockPrefixes: steps(blocks.map((e) => e[0])),
    blockNames: blocks.map((e) => e[1]),
    mediumPrefixes: steps(medium.map((e) => e[0])),
    mediumNames: medium.map((e) => e[1]),
    smallPrefixes: steps(small.map((e) => e[0])),
    smallNames: small.map((e) => e[1]),
    subdivided: steps([...subdivided].sort((a, b) => a - b)),
  };
}

/**
 * The ascending prefixes a {@link PackedOui} list holds as steps, in a typed array for binary
 * searches (`Float64Array`: a 36-bit prefix is beyond 32 bits). Internal: the vendor lookup.
 *
 * @example
 * [...unpackPrefixes([0x100648, 1])]; // [0x100648, 0x100649]
 */
export function unpackPrefixes(list: readonly number[]): Float64Array {
  const out = new Float64Array(list.length);
  let prefix = 0;
  for (let i = 0; i < list.length; i++) out[i] = prefix += list[i]!;
  return out;
}

function steps(ascending: readonly number[]): number[] {
  return ascending.map((p, i) => (i === 0 ? p : p - ascending[i - 1]!));
}

/**
 * The compiled `ouiTable.js` the build writes: the table as one JSON text, which V8 parses faster
 * than the same data written as a JavaScript literal, in ASCII (other characters escaped), which
 * Node reads faster than UTF-8. Internal: `scripts/packOuiTable.ts`.
 *
 * @example
 * ouiTableModule(packOui({})).startsWith("// Written by"); // true
 */
export function ouiTableModule(table: PackedOui): string {
  const json = JSON.stringify(table).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return (
    "// Written by `npm run build` (scripts/packOuiTable.ts): the oui-data registry packed by packOui.\n" +
    `export const OUI_TABLE = JSON.parse(${JSON.stringify(json)});\n`
  );
}

/** Numeric value of hex `key` (either case), or −1. */
function keyValue(key: string): number {
  let value = 0;
  for (let i = 0; i < key.length; i++) {
    const d = hexDigit(key.charCodeAt(i));
    if (d < 0) return -1;
    value = value * 16 + d;
  }
  return value;
}
