/**
 * Few phones, replayed: footfall's people inside on **overlays** of k = 3, 5, 8 and 12 simulated
 * phones, as issue 52 measured real phones ("22 labelled real phones overlaid 3, 5, 8 or 12 at a
 * time, 40 overlays, read with `footfall analyze` as one shop").
 *
 * An overlay is k people, each carrying one phone that replays one capture (`phones: "real"`):
 * k different phones of the 22 (labels drawn without replacement), each in one of its captured
 * modes (`ProfilePool.drawOf`), as the real overlays took k labelled phones. The k people walk
 * one small shop (8 × 6 m, ±20 %; three sensors on channels 1, 6 and 11; nobody else: no staff,
 * equipment, passers-by or extra devices, as the captures had none) together from a quarter hour
 * on for 15–20 minutes: capture-length, and long enough to fill that quarter hour, which is the
 * interval the overlay **fully occupies** (k people inside from its start to its end, the truth
 * exactly k; a shorter stay fully occupies no 15-minute interval). The records are read as a user
 * reads them, `analyze()` (src/analysis/analyze.ts, what `footfall analyze` runs) with the shop's
 * time zone and every other option at its default, and that interval's `inside` is scored:
 * absolute percentage error |inside − k| ÷ k (MAPE: its mean over the overlays), and whether the
 * 90 % interval [insideLow, insideHigh] holds k.
 *
 * Beside it, for the figure the stand-in reported before the phones were replayed: whole-day
 * worlds (`--worlds N`, default 12) with 120 visitors and 400 passers-by a day, scored on the
 * 15-minute intervals with 3–12 people inside (the stand-in, rates only: MAPE 55 %, the interval
 * held 96 %, on 12 worlds at a4b5a27).
 *
 *   npx tsx bench/tools/fewPhones.ts [--overlays N] [--large N] [--worlds N] [--seed S]
 *
 * prints the overlays of every size `--overlays` at a time (default 10: as many as the issue
 * read), then `--large` at a time (default 100: enough for the figures to settle; 0 skips it),
 * then the whole-day worlds (0 skips them).
 *
 * Seeded: the same arguments print the same table. A tool, not a bench: it lives under
 * bench/tools/ so `npm run bench` does not run it.
 */
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { analyze } from "../../src/analysis/analyze.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import { ProfilePool } from "../../src/sim/phones/ProfilePool.ts";
import { PHONE_VENDORS } from "../../src/sim/phones/vendorOuis.ts";
import { visitorTrack } from "../../src/sim/people/tracks.ts";
import { createRng, hashSeed } from "../../src/sim/random/prng.ts";
import { meanOccupancy } from "../../src/sim/truth/meanOccupancy.ts";
import { peopleTruth } from "../../src/sim/truth/peopleTruth.ts";
import { drawShopLayout } from "../../src/sim/world/drawShopLayout.ts";
import { rawSignalsOf } from "../../src/sim/world/rawSignalsOf.ts";
import { resolveWorldOptions, worldSpan } from "../../src/sim/world/resolveWorldOptions.ts";
import { ShopBuilder } from "../../src/sim/world/ShopBuilder.ts";
import { sampleCorrelation } from "simple-statistics";

/** The overlay sizes issue 52 measured real phones at. */
export const OVERLAY_SIZES: readonly number[] = [3, 5, 8, 12];
/** The analysis interval (analyze's default), ms: an overlay fully occupies one of them. */
const INTERVAL_MS = 15 * 60_000;

/** One overlay, read. */
export interface Overlay {
  /** People (phones) in it. */
  readonly k: number;
  /** The captures replayed, `device-mode`. */
  readonly profiles: readonly string[];
  /** Distinct MACs heard in that interval: the naive device count. */
  readonly macs: number;
  /** `inside` of the interval it fully occupies, and its 90 % interval. */
  readonly inside: number;
  readonly low: number;
  readonly high: number;
}

/** Figures over a set of overlays. */
export interface OverlayScore {
  readonly overlays: number;
  /** Mean |inside − k| ÷ k. */
  readonly mape: number;
  /** Share of overlays whose 90 % interval holds k. */
  readonly coverage: number;
  /** Σ inside ÷ Σ k. */
  readonly ratio: number;
  /** Median, lowest and highest `inside` ÷ k. */
  readonly medianRatio: number;
  readonly minRatio: number;
  readonly maxRatio: number;
}

/**
 * One overlay of `k` replayed phones, built and read: number `index` of its size, seeded by
 * `seed`, `k` and `index` alone (any overlay can be rebuilt by itself).
 */
export async function overlay(seed: number, k: number, index: number): Promise<Overlay> {
  const o = resolveWorldOptions({ seed, shops: 1, shopSizeM: [8, 6], sensorsPerShop: 3, phones: "real" });
  const rng = createRng(hashSeed(seed, "overlay", k, index));
  const usedMacs = new Set<string>();
  const { layout, sensorMacs } = drawShopLayout(rng, o, usedMacs);
  const shopId = 101;
  const b = new ShopBuilder(shopId, o, layout, usedMacs, 1 << 16, o.macBehaviour, o.realPhones);
  const pool = new ProfilePool("all");
  // k phones of the 22, without replacement (a partial Fisher–Yates), each in one of its modes.
  const devices = [...pool.devices];
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rng.next() * (devices.length - i));
    [devices[i], devices[j]] = [devices[j]!, devices[i]!];
  }
  const [dayStart] = worldSpan(o);
  const from = dayStart + 10 * 3_600_000; // 10:00 local: a quarter hour of the analysis
  const to = from + Math.round(rng.uniform(15, 20) * 60_000);
  const profiles: string[] = [];
  for (const device of devices.slice(0, k)) {
    const profile = pool.drawOf(rng, device);
    profiles.push(profile.id);
    const phone = b.replayPhone(rng, profile, profile.universal ? b.newMac(rng, PHONE_VENDORS) : undefined);
    const track = visitorTrack(rng, layout, from, to);
    b.burstVisit(rng, b.newPerson(), phone, "visitor", track, from, to, false);
  }
  // The truth, as the simulator keeps it: k inside from `from` to its quarter hour's end.
  const truth = meanOccupancy(b.occupancy(), from, from + INTERVAL_MS, { kinds: ["visitor"] });
  if (Math.abs(truth - k) > 1e-9) throw new Error(`overlay ${k}/${index}: ${truth} inside, not ${k}`);
  const table = b.cols.finish(shopId, b.devices, sensorMacs);
  const records = [...rawSignalsOf(table, dayStart, dayStart + 86_400_000)];
  // The naive count: distinct MACs heard in the interval.
  const macs = new Set(records.filter((r) => r.ts >= from && r.ts < from + INTERVAL_MS).map((r) => r.device_id)).size;
  const { people } = await analyze(records, { timeZone: o.timeZone });
  const interval = people.flatMap((p) => p.occupancy).find((x) => x.start === from);
  if (interval === undefined) return { k, profiles, inside: 0, low: 0, high: 0, macs }; // nothing heard: no estimate but 0
  return { k, profiles, inside: interval.inside, low: interval.insideLow, high: interval.insideHigh, macs };
}

/** MAPE, coverage and the spread of the estimates over `overlays`. */
export function scoreOverlays(overlays: readonly Overlay[]): OverlayScore {
  const ratios = overlays.map((x) => x.inside / x.k).sort((a, b) => a - b);
  const m = ratios.length >> 1;
  return {
    overlays: overlays.length,
    mape: overlays.reduce((a, x) => a + Math.abs(x.inside - x.k) / x.k, 0) / overlays.length,
    coverage: overlays.filter((x) => x.low <= x.k && x.k <= x.high).length / overlays.length,
    ratio: overlays.reduce((a, x) => a + x.inside, 0) / overlays.reduce((a, x) => a + x.k, 0),
    medianRatio: ratios.length % 2 === 1 ? ratios[m]! : (ratios[m - 1]! + ratios[m]!) / 2,
    minRatio: ratios[0]!,
    maxRatio: ratios[ratios.length - 1]!,
  };
}

/** MAPE and coverage of `inside` over intervals with 3–12 people inside, on `worlds` whole-day worlds (the stand-in's protocol). */
export async function scoreWorlds(worlds: number): Promise<{ intervals: number; mape: number; coverage: number; ratio: number }> {
  let n = 0;
  let ape = 0;
  let held = 0;
  let sx = 0;
  let st = 0;
  for (let seed = 1; seed <= worlds; seed++) {
    const world = createWorld({ seed: 900 + seed, shops: 1, days: 1, phones: "real", visitorsPerDay: 120, passersByPerDay: 400, staffPerShop: 0 });
    const shop = world.shops[0]!;
    const truth = peopleTruth(world);
    const { people } = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, proximity: false, quality: false, hourly: false });
    for (const p of people) {
      for (const o of p.occupancy) {
        const t = truth.inside(shop.id, o.start, o.end);
        if (t < 3 || t > 12) continue;
        n++;
        ape += Math.abs(o.inside - t) / t;
        sx += o.inside;
        st += t;
        if (o.insideLow <= t && t <= o.insideHigh) held++;
      }
    }
  }
  return { intervals: n, mape: ape / n, coverage: held / n, ratio: sx / st };
}

const pct = (x: number): string => `${(100 * x).toFixed(0)} %`;

/** The overlays of every size, `perK` of each, read and printed as a table. */
async function printOverlays(seed: number, perK: number): Promise<void> {
  const all: Overlay[] = [];
  console.log(`\n${perK} overlays per k (seed ${seed}):\n`);
  console.log(`| k | overlays | MAPE | interval holds k | inside ÷ k: median [lowest, highest] | Σ inside ÷ Σ k |`);
  console.log(`|---|---|---|---|---|---|`);
  const row = (label: string, s: OverlayScore): void =>
    console.log(`| ${label} | ${s.overlays} | ${pct(s.mape)} | ${Math.round(s.coverage * s.overlays)}/${s.overlays} (${pct(s.coverage)}) | ${s.medianRatio.toFixed(2)} [${s.minRatio.toFixed(2)}, ${s.maxRatio.toFixed(2)}] | ${s.ratio.toFixed(2)} |`);
  for (const k of OVERLAY_SIZES) {
    const these: Overlay[] = [];
    for (let i = 0; i < perK; i++) these.push(await overlay(seed, k, i));
    all.push(...these);
    row(String(k), scoreOverlays(these));
  }
  row("all", scoreOverlays(all));
  console.log(`\nr with k over the ${all.length} overlays: footfall's inside ${sampleCorrelation(all.map((x) => x.inside), all.map((x) => x.k)).toFixed(3)}, distinct MACs heard ${sampleCorrelation(all.map((x) => x.macs), all.map((x) => x.k)).toFixed(3)}`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { overlays: { type: "string", default: "10" }, large: { type: "string", default: "100" }, worlds: { type: "string", default: "12" }, seed: { type: "string", default: "52" } } });
  const seed = Number(values.seed);
  // As many overlays as the issue read (10 of each size), then enough for the figures to settle.
  for (const perK of [Number(values.overlays), Number(values.large)]) if (perK > 0) await printOverlays(seed, perK);
  if (Number(values.worlds) > 0) {
    const w = await scoreWorlds(Number(values.worlds));
    console.log(`\nwhole-day worlds (${values.worlds}): ${w.intervals} intervals with 3–12 people inside, MAPE ${pct(w.mape)}, the 90 % interval holds the truth in ${pct(w.coverage)}, Σ estimate ÷ Σ truth ${w.ratio.toFixed(2)}`);
  }
}
