import { millisToRts } from "../../codec/rts.ts";
import { footfallSpelling, spellRts, type RtsSpelling } from "../../codec/rtsSpelling.ts";
import type { ShopSignals } from "../world/World.ts";
import { breakRecord, brokenKind } from "./brokenRecord.ts";
import { rtsOfMillis } from "./serviceRts.ts";

/**
 * Unit of the `ts` field a simulator writes, or of its RTS (`RecordForm.rtsUnit`).
 *
 * @example
 * const unit: TsUnit = "us"; // ts = epoch microseconds
 */
export type TsUnit = "s" | "ms" | "us" | "ns";

/**
 * How a {@link PageEncoder} writes records: the readings of the spec a simulator serves, and its
 * broken records.
 *
 * @example
 * const form: RecordForm = { unit: "ns", quoteTs: true, malformedRate: 0.001, seed: 7 };
 */
export interface RecordForm {
  /** Unit of `ts`. */
  readonly unit: TsUnit;
  /** Unit the RTS in `row_key` counts (`rtsOfMillis`); the interface does not publish it. @default "ms" */
  readonly rtsUnit?: TsUnit;
  /** How the RTS is spelled: case, and zero-padded to 16 digits or not. @default footfall's (lowercase, padded) */
  readonly spelling?: Readonly<RtsSpelling>;
  /** `ts` as a JSON string of its digits, as some services serialise 64-bit integers. @default false */
  readonly quoteTs?: boolean;
  /** Share of records served broken (`brokenKind`), the same ones on every request. @default 0 */
  readonly malformedRate?: number;
  /** Seed of which records are broken, and how. @default 0 */
  readonly seed?: number;
  /** Bytes of encoded chunks kept (32 MiB ≈ one busy shop-day). @default 32 MiB */
  readonly maxCacheBytes?: number;
}

/** Records per cached chunk: a page (≤ 200 records) spans at most two chunks. */
const CHUNK = 512;
const encoder = new TextEncoder();
const latin1 = new TextDecoder("latin1");
/** ASCII codes of the hex digits, for the last 4 digits of an RTS, in either spelling. */
const HEX_LOWER = Array.from("0123456789abcdef", (c) => c.charCodeAt(0));
const HEX_UPPER = Array.from("0123456789ABCDEF", (c) => c.charCodeAt(0));
const PAGE_HEAD = encoder.encode('{"signals":[');

interface Chunk {
  /** The chunk's records as JSON, each preceded by a comma. */
  readonly bytes: Uint8Array;
  /** Start of record k in `bytes`; `offsets[count]` is the end. */
  readonly offsets: Uint32Array;
}

/** Pre-encoded pieces of one shop's records (ASCII bytes). */
interface Fragments {
  /** `","device_id":"<mac>","rssi":` per device (its first quote closes the row_key). */
  readonly device: readonly Uint8Array[];
  /** `,"local":<bool>}` per device. */
  readonly local: readonly Uint8Array[];
  /** `,"square_mac":"<mac>","ts":` per sensor. */
  readonly sensor: readonly Uint8Array[];
  /** Longest record this table can produce, bytes, with its leading comma. */
  readonly maxRecord: number;
}

/**
 * Writes signal pages as UTF-8 JSON bytes. Records are encoded a chunk of 512 at a time
 * (per-device and per-sensor parts pre-encoded once per shop and copied with
 * `Uint8Array.set`; only the row_key tail, `rssi` and `ts` are written per record) and kept
 * in an LRU cache bounded by `maxCacheBytes`, so a page is a binary search plus one or two
 * byte copies whenever it is read again (overlapping cursors, retries, a benchmark's
 * repeated runs). See bench/sim.ts for the cost next to a client's `JSON.parse`.
 *
 * @example
 * const pages = new PageEncoder({ unit: "ms" });
 * const body = pages.page(world.signalTable(101)!, 0, 20, "0000000000000000"); // {"signals":[…],"since":"…"}
 */
export class PageEncoder {
  private readonly cache = new Map<string, Chunk>();
  private cachedBytes = 0;
  private readonly fragments = new WeakMap<ShopSignals, Fragments>();

  private readonly unit: TsUnit;
  private readonly rtsUnit: TsUnit;
  private readonly spelling: Readonly<RtsSpelling>;
  private readonly quoteTs: boolean;
  private readonly malformedRate: number;
  private readonly seed: number;
  private readonly maxCacheBytes: number;

  constructor(form: RecordForm) {
    this.unit = form.unit;
    this.rtsUnit = form.rtsUnit ?? "ms";
    this.spelling = form.spelling ?? footfallSpelling();
    this.quoteTs = form.quoteTs ?? false;
    this.malformedRate = form.malformedRate ?? 0;
    this.seed = form.seed ?? 0;
    this.maxCacheBytes = form.maxCacheBytes ?? 32 * 1024 * 1024;
  }

  /** The page body for records [from, end) of `table`, echoing `since`. */
  page(table: ShopSignals, from: number, end: number, since: string): Uint8Array<ArrayBuffer> {
    return this.pageOfRuns(table, [from, end], since);
  }

  /**
   * The page body for several runs of records of `table` — `runs` is a flat list of
   * `from, end` pairs in ascending order (records [from, end) of each) — echoing `since`.
   */
  pageOfRuns(table: ShopSignals, runs: readonly number[], since: string): Uint8Array<ArrayBuffer> {
    const tail = encoder.encode(`],"since":${JSON.stringify(since)}}`);
    const parts: Uint8Array[] = [PAGE_HEAD];
    let size = PAGE_HEAD.length + tail.length;
    let first = true;
    for (let r = 0; r + 1 < runs.length; r += 2) {
      const end = runs[r + 1]!;
      for (let i = runs[r]!; i < end; ) {
        const c = Math.floor(i / CHUNK);
        const chunk = this.chunk(table, c);
        const base = c * CHUNK;
        const stop = Math.min(end, base + CHUNK);
        // Skip the comma in front of the page's first record.
        const part = chunk.bytes.subarray(chunk.offsets[i - base]! + (first ? 1 : 0), chunk.offsets[stop - base]!);
        parts.push(part);
        size += part.length;
        first = false;
        i = stop;
      }
    }
    parts.push(tail);
    const out = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  private chunk(table: ShopSignals, index: number): Chunk {
    const key = `${table.shopId}:${index}`;
    let chunk = this.cache.get(key);
    if (chunk !== undefined) {
      // Re-insert: Map order is the LRU order.
      this.cache.delete(key);
      this.cache.set(key, chunk);
      return chunk;
    }
    chunk = this.encode(table, index * CHUNK, Math.min(table.count, (index + 1) * CHUNK));
    this.cache.set(key, chunk);
    this.cachedBytes += chunk.bytes.length;
    while (this.cachedBytes > this.maxCacheBytes && this.cache.size > 1) {
      const oldest = this.cache.keys().next().value!;
      this.cachedBytes -= this.cache.get(oldest)!.bytes.length;
      this.cache.delete(oldest);
    }
    return chunk;
  }

  /**
   * Encodes records [from, end) as `,{record}` each. Equal times (every sensor hears the
   * same probe) reuse the ts digits; the row_key head (all but the last 4 hex digits of the
   * RTS, from `millisToRts`, spelled) changes only every 65.536 s.
   */
  private encode(table: ShopSignals, from: number, end: number): Chunk {
    const f = this.fragmentsOf(table);
    const out = new Uint8Array((end - from) * f.maxRecord);
    const offsets = new Uint32Array(end - from + 1);
    const time = table.time;
    // ts is the RTS's own time unless the sensors upload in batches (then read apart).
    const stamps = table.ts === time ? undefined : table.ts;
    const dev = table.device;
    const sens = table.sensor;
    const rssi = table.rssi;
    const unit = this.unit;
    const rtsUnit = this.rtsUnit;
    const spelling = this.spelling;
    const HEX = spelling.upper ? HEX_UPPER : HEX_LOWER;
    // The last four digits are written from bytes only for padded ms keys; others are whole keys.
    const fast = rtsUnit === "ms" && spelling.padded;
    const quote = this.quoteTs;
    let pos = 0;
    let lastT = -1;
    let lastTs = -1;
    let lastHigh = -1;
    let head = EMPTY;
    // ts as an integer in its unit: value = tsHigh·10^8 + tsLow (each exact in a double),
    // then `tsZeros` zeros for µs/ns; written digit by digit, no string per record.
    const tsZeros = unit === "us" ? 3 : unit === "ns" ? 6 : 0;
    let tsHigh = 0;
    let tsLow = 0;
    for (let i = from; i < end; i++) {
      offsets[i - from] = pos;
      const t = time[i]!;
      const d = dev[i]!;
      if (t !== lastT) {
        lastT = t;
        if (!fast) {
          // Another unit or an unpadded RTS: the whole key, once per distinct time (tests only).
          head = encoder.encode(`,{"row_key":"${table.shopId}:${spellRts(rtsOfMillis(t, rtsUnit), spelling)}`);
        } else {
          const high = Math.floor(t / 65536);
          if (high !== lastHigh) {
            lastHigh = high;
            const key = `${table.shopId}:${spellRts(millisToRts(high * 65536), spelling)}`;
            head = encoder.encode(`,{"row_key":"${key.slice(0, -4)}`);
          }
        }
      }
      const st = stamps === undefined ? t : stamps[i]!;
      if (st !== lastTs) {
        lastTs = st;
        const v = unit === "s" ? Math.floor(st / 1000) : st;
        tsHigh = Math.floor(v / 1e8);
        tsLow = v - tsHigh * 1e8;
      }
      out.set(head, pos);
      pos += head.length;
      if (fast) {
        const low = t - lastHigh * 65536;
        out[pos++] = HEX[low >>> 12]!;
        out[pos++] = HEX[(low >>> 8) & 15]!;
        out[pos++] = HEX[(low >>> 4) & 15]!;
        out[pos++] = HEX[low & 15]!;
      }
      const df = f.device[d]!;
      out.set(df, pos);
      pos += df.length;
      let r = rssi[i]!;
      if (r < 0) {
        out[pos++] = 45; // -
        r = -r;
      }
      if (r >= 100) out[pos++] = 48 + Math.floor(r / 100);
      if (r >= 10) out[pos++] = 48 + (Math.floor(r / 10) % 10);
      out[pos++] = 48 + (r % 10);
      const sf = f.sensor[sens[i]!]!;
      out.set(sf, pos);
      pos += sf.length;
      if (quote) out[pos++] = 34;
      if (tsHigh > 0) {
        pos = writeInt(out, pos, tsHigh);
        for (let k = 7, x = tsLow; k >= 0; k--, x = Math.floor(x / 10)) out[pos + k] = 48 + (x % 10);
        pos += 8;
      } else pos = writeInt(out, pos, tsLow);
      for (let k = 0; k < tsZeros; k++) out[pos++] = 48;
      if (quote) out[pos++] = 34;
      const lf = f.local[d]!;
      out.set(lf, pos);
      pos += lf.length;
      const kind = brokenKind(this.seed, table.shopId, i, this.malformedRate);
      if (kind >= 0) {
        // The whole record written, then rewritten broken (rare: the slow path is fine).
        const start = offsets[i - from]! + 1;
        const broken = breakRecord(latin1.decode(out.subarray(start, pos)), kind);
        pos = start + encoder.encodeInto(broken, out.subarray(start)).written;
      }
    }
    offsets[end - from] = pos;
    return { bytes: out.slice(0, pos), offsets };
  }

  private fragmentsOf(table: ShopSignals): Fragments {
    let f = this.fragments.get(table);
    if (f === undefined) {
      const device = table.devices.map((mac) => encoder.encode(`","device_id":${JSON.stringify(mac)},"rssi":`));
      const sensor = table.sensors.map((mac) => encoder.encode(`,"square_mac":${JSON.stringify(mac)},"ts":`));
      const local = [encoder.encode(',"local":false}'), encoder.encode(',"local":true}')];
      const longest = (xs: readonly Uint8Array[]): number => xs.reduce((m, x) => Math.max(m, x.length), 0);
      // `,{"row_key":"<id>:<16 hex>` + device + rssi (≤ 4) + sensor + ts (≤ 22 digits, 2 quotes)
      // + local, + 3 for a broken record (`"rssi":0` → `"rssi":null` grows most).
      const maxRecord = 13 + String(table.shopId).length + 17 + longest(device) + 4 + longest(sensor) + 24 + 15 + 3;
      f = { device, local: Array.from(table.deviceLocal, (l) => local[l === 1 ? 1 : 0]!), sensor, maxRecord };
      this.fragments.set(table, f);
    }
    return f;
  }
}

const EMPTY = new Uint8Array(0);

/** Writes a non-negative integer below 2^31 in decimal; returns the new position. */
function writeInt(out: Uint8Array, pos: number, value: number): number {
  let digits = 1;
  for (let x = value; x >= 10; x = Math.floor(x / 10)) digits++;
  for (let k = digits - 1, x = value; k >= 0; k--, x = Math.floor(x / 10)) out[pos + k] = 48 + (x % 10);
  return pos + digits;
}
