/**
 * Few phones, as real phones probe: footfall's people inside on simulated shops with the
 * simulator's real-phone behaviour (`phones: "real"`: heavy-tailed burst rates matched to 97
 * captures of 22 real phones, per-channel MACs, extra devices, equipment), scored on the 15-minute
 * intervals with 3 to 12 people inside: MAPE of `inside` and how often the 90 % interval holds the
 * truth, as installed. The public labelled capture itself is not in this repository; this is the
 * simulator's stand-in for issue 34's "few real phones" overlays.
 *
 *   npx tsx bench/tools/fewPhones.ts [SEEDS]
 */
import { fileURLToPath } from "node:url";
import { analyze } from "../../src/analysis/analyze.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import { peopleTruth } from "../../src/sim/truth/peopleTruth.ts";

/** MAPE and coverage of `inside` over intervals with 3–12 people inside, on `seeds` worlds. */
export async function scoreFewPhones(seeds: number): Promise<{ intervals: number; mape: number; coverage: number; ratio: number }> {
  let n = 0;
  let ape = 0;
  let held = 0;
  let sx = 0;
  let st = 0;
  for (let seed = 1; seed <= seeds; seed++) {
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

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await scoreFewPhones(Number(process.argv[2] ?? 6));
  console.log(`${r.intervals} intervals with 3–12 people inside: MAPE ${(r.mape * 100).toFixed(0)} %, the 90 % interval holds the truth in ${(r.coverage * 100).toFixed(0)} %, estimate ÷ truth ${r.ratio.toFixed(2)}`);
}
