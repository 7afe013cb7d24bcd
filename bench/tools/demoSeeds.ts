/**
 * The demo's day is one draw of a world: `npm start` reads seed 1. This reads the same world shape
 * for many seeds — 5 shops, the demo's opening hours, MAC rotation as the demo has it, one day —
 * with `analyze()` (what `footfall analyze` runs, every option at its default but the shop's
 * time zone), and scores each seed's people as the demo does (`scorePeople` against
 * `peopleTruth`: the people who came inside, extra devices left out). It prints per seed the
 * day's people error, its MAC-level count's, and where the people estimate's error sits: in the
 * identity-known visits (universal MACs and MACs kept over a visit, against the people whose
 * phone kept one MAC) or in the rest counted by bursts (against the people whose phone rotated);
 * then the mean, the mean absolute value and the range over the seeds.
 *
 *   npx tsx bench/tools/demoSeeds.ts [--seeds 1-12]
 *
 * Seeded: the same arguments print the same table. A tool, not a bench: it lives under
 * bench/tools/ so `npm run bench` does not run it.
 */
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { max, mean, min } from "simple-statistics";
import { analyze } from "../../src/analysis/analyze.ts";
import { defaultDemoOptions } from "../../src/demo/DemoOptions.ts";
import { scorePeople } from "../../src/kernels/people/scorePeople.ts";
import type { PeopleEstimate } from "../../src/kernels/people/PeopleEstimate.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import { peopleTruth } from "../../src/sim/truth/peopleTruth.ts";

/** One seed's day, scored. */
export interface SeedDay {
  readonly seed: number;
  /** People who came inside, all shops (the truth). */
  readonly present: number;
  /** (people estimated − present) ÷ present. */
  readonly peopleError: number;
  /** (distinct visitor MACs − present) ÷ present. */
  readonly macError: number;
  /** (identity-known visitors − people whose phone kept one MAC) ÷ the latter. */
  readonly knownError: number;
  /** (people counted by bursts − people whose phone rotated its MAC) ÷ the latter. */
  readonly restError: number;
}

/**
 * Reads and scores one seed's demo-shaped day.
 *
 * @example
 * const day = await seedDay(1);
 * day.present > 0; // true
 */
export async function seedDay(seed: number): Promise<SeedDay> {
  const d = defaultDemoOptions;
  const world = createWorld({ seed, shops: d.shops, openingHours: d.hours, days: 1, rotation: d.rotation ?? "realistic" });
  const estimates: PeopleEstimate[] = [];
  let macs = 0;
  let known = 0;
  let kept = 0;
  let rotated = 0;
  for (const shop of world.shops) {
    const r = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, proximity: false, quality: false, hourly: false });
    estimates.push(...r.people);
    for (const day of r.days) macs += day.visitors;
    for (const p of r.people) known += p.knownVisitors;
    for (const v of world.visits(shop.id)) {
      if (v.kind !== "visitor" || !v.inside || v.extraDevice !== undefined) continue;
      if (v.macClass === "rotating") rotated++;
      else kept++;
    }
  }
  const score = scorePeople(estimates, peopleTruth(world));
  const present = score.truth;
  return {
    seed,
    present,
    peopleError: score.totalError,
    macError: (macs - present) / present,
    knownError: (known - kept) / kept,
    restError: (score.visitors - known - rotated) / rotated,
  };
}

function seedsOf(text: string): number[] {
  const m = /^(\d+)-(\d+)$/.exec(text);
  if (m === null) return text.split(",").map(Number);
  const out: number[] = [];
  for (let s = Number(m[1]); s <= Number(m[2]); s++) out.push(s);
  return out;
}

const pct = (x: number): string => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)} %`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seeds: { type: "string", default: "1-12" } } });
  const seeds = seedsOf(values.seeds);
  if (seeds.some((s) => !Number.isInteger(s))) throw new RangeError(`--seeds must be N-M or a comma list of integers, got ${values.seeds}`);
  const days: SeedDay[] = [];
  console.log("| seed | people present | people error | MAC error | identity-known visits | the rest, by bursts |\n|---|---|---|---|---|---|");
  for (const seed of seeds) {
    const d = await seedDay(seed);
    days.push(d);
    console.log(`| ${seed} | ${d.present} | ${pct(d.peopleError)} | ${pct(d.macError)} | ${pct(d.knownError)} | ${pct(d.restError)} |`);
  }
  const errors = days.map((d) => d.peopleError);
  console.log(
    `\n${days.length} seeds: people error mean ${pct(mean(errors))}, mean |error| ${(100 * mean(errors.map(Math.abs))).toFixed(1)} %, ` +
      `range ${pct(min(errors))} to ${pct(max(errors))}; identity-known ${pct(mean(days.map((d) => d.knownError)))}, the rest ${pct(mean(days.map((d) => d.restError)))} (means)`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
