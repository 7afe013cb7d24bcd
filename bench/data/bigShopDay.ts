/**
 * The big shop-day of issue 13: one shop, one local day in Asia/Seoul, ~1.7 M records from
 * ~47 000 devices heard by 3 sensors — ≈7 000 visitors who stay minutes to hours and come close
 * to a sensor, ≈40 000 passers-by heard briefly and weakly — written as `footfall signals
 * backfill` writes them (the service's six fields in order, then the decoded ones), sorted by
 * RTS. Generated from a seeded PRNG, so every run benches the same bytes, and written once to a
 * cache file named after its parameters (generation takes seconds; the file is ~0.5 GB).
 *
 * Not a simulator: no MAC rotation, staff or fixtures, and a simple RSSI model. It exists to give
 * the big shop-day bench the volume and mix of a busy shop.
 */
import { createWriteStream, existsSync, statSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventEmitter } from "node:events";
import ouiData from "oui-data" with { type: "json" };
import { vendorOf } from "../../src/codec/oui.ts";
import { hex2, prng } from "../lib.ts";

/**
 * Parameters of {@link bigShopDayFile}; every one is part of the cache file's name.
 *
 * @example
 * const small: BigShopDayOptions = { visitors: 70, passersBy: 400, dir: "/tmp/bench" };
 */
export interface BigShopDayOptions {
  /** PRNG seed. @default 13 */
  readonly seed?: number;
  /** Devices that visit (most dwell ≥ 5 min and come within −75 dBm of a sensor). @default 7000 */
  readonly visitors?: number;
  /** Devices that pass by (heard for seconds to two minutes, weakly). @default 40000 */
  readonly passersBy?: number;
  /** Directory of the cache file. @default `<os tmpdir>/footfall-bench` */
  readonly dir?: string;
}

/**
 * The defaults of {@link BigShopDayOptions}.
 *
 * @example
 * defaultBigShopDay.visitors; // 7000
 */
export const defaultBigShopDay = Object.freeze({ seed: 13, visitors: 7000, passersBy: 40000, dir: join(tmpdir(), "footfall-bench") });

/**
 * What {@link bigShopDayFile} wrote (or found).
 *
 * @example
 * const { path, records } = await bigShopDayFile();
 */
export interface BigShopDay {
  /** Path of the NDJSON file. */
  readonly path: string;
  /** Lines (records) in it. */
  readonly records: number;
  /** Distinct device MACs. */
  readonly devices: number;
  /** File size, bytes. */
  readonly bytes: number;
  /** SHOP ID of every record. */
  readonly shopId: number;
  /** The local day, `YYYY-MM-DD` in {@link BigShopDay.timeZone}. */
  readonly date: string;
  /** IANA time zone of the shop. */
  readonly timeZone: string;
  /** Whether this call generated the file (false: reused from the cache). */
  readonly generated: boolean;
}

const SHOP_ID = 101;
const TIME_ZONE = "Asia/Seoul";
const DATE = "2026-11-16";
/** Local midnight of DATE in Asia/Seoul (UTC+9, no DST since 1988), epoch ms. */
const DAY_START = Date.UTC(2026, 10, 16) - 9 * 3_600_000;
const H = 3_600_000;
const SENSORS = ["b8:27:eb:4a:10:01", "b8:27:eb:4a:10:02", "dc:a6:32:07:7e:11"];
const LOCAL_SHARE = 0.4;
const VENDORS = ["Apple, Inc.", "Samsung Electronics Co.,Ltd", "Google, Inc.", "Xiaomi Communications Co Ltd", "Intel Corporate", "Sony Corporation"];
/** Bumped when the generator changes, so a stale cache file is not reused. */
const VERSION = 1;
/** Records are sorted by `time · 2^21 + index` in one Float64Array: the index fits 21 bits. */
const INDEX_BITS = 2 ** 21;

/**
 * Writes the big shop-day to its cache file unless a complete one with the same parameters is
 * there, and says what it holds. The file is written under a temporary name and renamed, so an
 * interrupted run leaves no half file to reuse.
 *
 * @example
 * const day = await bigShopDayFile();
 * day.records; // ≈ 1.7 M
 */
export async function bigShopDayFile(options: BigShopDayOptions = {}): Promise<BigShopDay> {
  const seed = options.seed ?? defaultBigShopDay.seed;
  const visitors = options.visitors ?? defaultBigShopDay.visitors;
  const passersBy = options.passersBy ?? defaultBigShopDay.passersBy;
  const dir = options.dir ?? defaultBigShopDay.dir;
  const path = join(dir, `big-shop-day-v${VERSION}-s${seed}-v${visitors}-p${passersBy}.ndjson`);
  const meta = `${path}.meta.json`;
  if (existsSync(path) && existsSync(meta)) {
    const saved = JSON.parse(await readFile(meta, "utf8")) as { records: number; devices: number; bytes: number };
    if (statSync(path).size === saved.bytes) return { ...saved, path, shopId: SHOP_ID, date: DATE, timeZone: TIME_ZONE, generated: false };
  }
  await mkdir(dir, { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  try {
    const stats = await generate(partial, seed, visitors, passersBy);
    await rename(partial, path);
    await writeFile(meta, JSON.stringify(stats));
    return { ...stats, path, shopId: SHOP_ID, date: DATE, timeZone: TIME_ZONE, generated: true };
  } finally {
    await rm(partial, { force: true });
  }
}

interface Device {
  /** Normalised MAC (as the service sends them, so `device_id` and `device` agree). */
  readonly mac: string;
  readonly local: boolean;
  /** JSON text of the vendor (`null` or a quoted string). */
  readonly vendorJson: string;
}

async function generate(path: string, seed: number, visitorCount: number, passerCount: number): Promise<{ records: number; devices: number; bytes: number }> {
  const random = prng(seed);
  const normal = (): number => {
    // Box–Muller; 1 − random() keeps log() away from 0.
    return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  };
  const registry = ouiData as unknown as Record<string, string>;
  const prefixes = Object.keys(registry)
    .filter((k) => k.length === 6 && VENDORS.includes(registry[k]!.split("\n")[0]!))
    .sort();
  const seen = new Set<string>();
  const devices: Device[] = [];
  const newDevice = (): number => {
    for (;;) {
      const tail = `${hex2(Math.floor(random() * 256))}:${hex2(Math.floor(random() * 256))}:${hex2(Math.floor(random() * 256))}`;
      let mac: string;
      const local = random() < LOCAL_SHARE;
      if (local) {
        // Randomised: local bit set, multicast bit clear.
        mac = `${hex2((Math.floor(random() * 256) & 0xfc) | 0x02)}:${hex2(Math.floor(random() * 256))}:${hex2(Math.floor(random() * 256))}:${tail}`;
      } else {
        const p = prefixes[Math.floor(random() * prefixes.length)]!.toLowerCase();
        mac = `${p.slice(0, 2)}:${p.slice(2, 4)}:${p.slice(4, 6)}:${tail}`;
      }
      if (seen.has(mac)) continue;
      seen.add(mac);
      const vendor = local ? undefined : vendorOf(mac);
      devices.push({ mac, local, vendorJson: vendor === undefined ? "null" : JSON.stringify(vendor) });
      return devices.length - 1;
    }
  };

  // Records as columns; sorted by time once all are made.
  let capacity = 1 << 21;
  let times = new Float64Array(capacity);
  let who = new Int32Array(capacity);
  let sensorOf = new Uint8Array(capacity);
  let rssiOf = new Int8Array(capacity);
  let n = 0;
  const add = (time: number, device: number, sensor: number, rssi: number): void => {
    if (n === capacity) {
      capacity *= 2;
      const grow = <T extends Float64Array | Int32Array | Uint8Array | Int8Array>(a: T, b: T): T => (b.set(a), b);
      times = grow(times, new Float64Array(capacity));
      who = grow(who, new Int32Array(capacity));
      sensorOf = grow(sensorOf, new Uint8Array(capacity));
      rssiOf = grow(rssiOf, new Int8Array(capacity));
    }
    times[n] = Math.floor(time);
    who[n] = device;
    sensorOf[n] = sensor;
    rssiOf[n] = Math.max(-100, Math.min(-30, Math.round(rssi)));
    n++;
  };

  // Visitors: arrive while the shop is open (10–22 h), stay minutes to hours (log-normal, median
  // ~14 min), probe every 6–22 s; each probe is heard by the sensors in range. How close a
  // visitor comes sets their peak; most come within −75 dBm of some sensor.
  for (let v = 0; v < visitorCount; v++) {
    const d = newDevice();
    const visits = random() < 0.03 ? 2 : 1;
    let arrive = DAY_START + 10 * H + random() * 11.5 * H;
    for (let k = 0; k < visits; k++) {
      const dwell = Math.min(4 * H, Math.max(60_000, Math.exp(Math.log(14 * 60_000) + 0.9 * normal())));
      const leave = Math.min(arrive + dwell, DAY_START + 23.9 * H);
      const interval = 6_000 + random() * 16_000;
      const peak = random() < 0.88 ? -48 - random() * 26 : -76 - random() * 10;
      const offsets = [0, 6 + random() * 6, 12 + random() * 10];
      // Which sensor the visitor is nearest to; the others hear them weaker.
      const nearest = Math.floor(random() * 3);
      const phase = random() * 2 * Math.PI;
      for (let t = arrive; t <= leave; t += interval * (0.8 + 0.4 * random())) {
        // Walking about: up to 14 dB weaker than the peak, back near it from time to time.
        const wander = 7 - 7 * Math.cos(phase + ((t - arrive) / 240_000) * Math.PI);
        for (let s = 0; s < 3; s++) {
          const rssi = peak - offsets[(s - nearest + 3) % 3]! - wander + 2 * normal();
          if (rssi < -92 || random() < 0.15) continue;
          add(t + s * 7, d, s, rssi);
        }
      }
      arrive = leave + 30 * 60_000 + random() * 2 * H;
      if (arrive > DAY_START + 23 * H) break;
    }
  }
  // Passers-by: heard over seconds to two minutes, 7–23 h, weakly, by one or two sensors.
  for (let p = 0; p < passerCount; p++) {
    const d = newDevice();
    const start = DAY_START + 7 * H + random() * 16 * H;
    const span = 5_000 + random() * 115_000;
    const base = -78 - random() * 14;
    const sensor = Math.floor(random() * 3);
    const bursts = 1 + Math.floor(random() * 4);
    for (let b = 0; b < bursts; b++) {
      const t = start + (span * b) / bursts;
      add(t, d, sensor, base + 2 * normal());
      if (random() < 0.5) add(t + 11, d, (sensor + 1) % 3, base - 4 + 2 * normal());
    }
  }
  if (n >= INDEX_BITS) throw new Error(`big shop-day: ${n} records do not fit the sort key (${INDEX_BITS})`);

  // Sorted by time (then by generation order): one native sort of packed keys.
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = (times[i]! - DAY_START) * INDEX_BITS + i;
  keys.sort();

  const out = createWriteStream(path);
  let chunk = "";
  let bytes = 0;
  let last = -1;
  const rowKeyPrefix = `${SHOP_ID}:`;
  for (let k = 0; k < n; k++) {
    const i = keys[k]! % INDEX_BITS;
    // Strictly increasing ms, so every row_key (shop and RTS) is unique as the service's are.
    const time = Math.max(times[i]!, last + 1);
    last = time;
    const dev = devices[who[i]!]!;
    const sensor = SENSORS[sensorOf[i]!]!;
    const rts = time.toString(16).padStart(16, "0");
    // The line `footfall signals backfill` writes: the service's record, then the decoded fields.
    chunk +=
      `{"row_key":"${rowKeyPrefix}${rts}","device_id":"${dev.mac}","rssi":${rssiOf[i]},"square_mac":"${sensor}","ts":${time},"local":${dev.local},` +
      `"shopId":${SHOP_ID},"rts":"${rts}","time":${time},"device":"${dev.mac}","sensor":"${sensor}","randomized":${dev.local},"vendor":${dev.vendorJson}}\n`;
    if (chunk.length >= 1 << 20) {
      bytes += Buffer.byteLength(chunk);
      if (!out.write(chunk)) await EventEmitter.once(out, "drain");
      chunk = "";
    }
  }
  bytes += Buffer.byteLength(chunk);
  out.end(chunk);
  await EventEmitter.once(out, "finish");
  return { records: n, devices: devices.length, bytes };
}
