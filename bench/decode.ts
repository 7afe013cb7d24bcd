/**
 * Decode throughput: SignalDecoder (validation, MAC normalising, ts units, OUI vendor
 * lookup, data-quality counters) over the records of 1,000 pages of 200, against
 * `JSON.parse` of the same pages' JSON texts. Goal: decoding costs no more than parsing did.
 *
 * Run alone: `npx tsx bench/decode.ts`.
 */
import ouiData from "oui-data" with { type: "json" };
import { pathToFileURL } from "node:url";
import { SignalDecoder } from "../src/codec/decodeSignal.ts";
import { hex2, prng, rate, timePair, timeRatio, type BenchRow } from "./lib.ts";

const PAGES = 1000;
const PAGE_SIZE = 200;
const SHOP_ID = 101;
const DEVICES = 5000;
const LOCAL_SHARE = 0.4;
/** Vendors whose real prefixes the universal devices get (the usual suspects in a shop). */
const VENDORS = ["Apple, Inc.", "Samsung Electronics Co.,Ltd", "Google, Inc.", "HUAWEI TECHNOLOGIES CO.,LTD", "Xiaomi Communications Co Ltd", "OnePlus Technology (Shenzhen) Co., Ltd", "Intel Corporate", "Sony Corporation"];

/** Deterministic pages of realistic records, as the JSON texts the service would send. */
export function makePages(seed = 1): string[] {
  const random = prng(seed);
  const byte = (): number => Math.floor(random() * 256);
  const registry = ouiData as unknown as Record<string, string>;
  const prefixes = Object.keys(registry)
    .filter((k) => k.length === 6 && VENDORS.includes(registry[k]!.split("\n")[0]!))
    .sort();
  const devices: Array<{ mac: string; local: boolean }> = [];
  for (let i = 0; i < DEVICES; i++) {
    const tail = `${hex2(byte())}:${hex2(byte())}:${hex2(byte())}`;
    if (random() < LOCAL_SHARE) {
      // randomised: local bit set, multicast bit clear
      devices.push({ mac: `${hex2((byte() & 0xfc) | 0x02)}:${hex2(byte())}:${hex2(byte())}:${tail}`, local: true });
    } else {
      const p = prefixes[Math.floor(random() * prefixes.length)]!.toLowerCase();
      devices.push({ mac: `${p.slice(0, 2)}:${p.slice(2, 4)}:${p.slice(4, 6)}:${tail}`, local: false });
    }
  }
  const sensors = ["b8:27:eb:4a:10:01", "b8:27:eb:4a:10:02", "dc:a6:32:07:7e:11", "dc:a6:32:07:7e:12"];
  let time = Date.UTC(2025, 10, 20, 9, 0);
  const texts: string[] = [];
  for (let p = 0; p < PAGES; p++) {
    const since = time.toString(16).padStart(16, "0");
    const signals = [];
    for (let i = 0; i < PAGE_SIZE; i++) {
      time += Math.floor(random() * 40);
      const device = devices[Math.floor(random() * DEVICES)]!;
      signals.push({
        row_key: `${SHOP_ID}:${time.toString(16).padStart(16, "0")}`,
        device_id: device.mac,
        rssi: -30 - Math.floor(random() * 65),
        square_mac: sensors[Math.floor(random() * sensors.length)]!,
        ts: time,
        local: device.local,
      });
    }
    texts.push(JSON.stringify({ signals, since }));
  }
  return texts;
}

export default async function decodeBench(): Promise<BenchRow[]> {
  const texts = makePages();
  const pages = texts.map((t) => (JSON.parse(t) as { signals: unknown[] }).signals);
  const records = PAGES * PAGE_SIZE;
  let sink = 0;

  const decode = (): void => {
    const decoder = new SignalDecoder({ shopId: SHOP_ID });
    for (const page of pages) {
      for (let i = 0; i < page.length; i++) {
        if (decoder.decode(page[i]) !== undefined) sink++;
      }
    }
    if (decoder.stats.invalid !== 0) throw new Error("bench data should all be valid");
  };
  const parse = (): void => {
    for (const text of texts) sink += (JSON.parse(text) as { signals: unknown[] }).signals.length;
  };

  const [d, p] = await timePair(decode, parse, { runs: 15, warmup: 3 });
  if (sink === 0) throw new Error("nothing measured");
  const ratio = timeRatio(d.samples, p.samples);
  return [
    {
      figure: "Decode with vendor lookup (records/s)",
      footfall: rate((records / d.median) * 1000, "rec/s"),
      baseline: `${rate((records / p.median) * 1000, "rec/s")} JSON.parse`,
      ratio: Number(ratio.toFixed(2)),
      goal: "≤ 1.0× parse time",
      met: ratio <= 1,
      note: `${PAGES} pages × ${PAGE_SIZE}; decode min ${d.min.toFixed(0)} / median ${d.median.toFixed(0)} ms, parse min ${p.min.toFixed(0)} / median ${p.median.toFixed(0)} ms`,
    },
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await decodeBench());
}
