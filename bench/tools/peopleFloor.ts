/**
 * How close a rate-based people count can come to the truth on one shop-day, measured: each
 * shop-day's people estimate next to an **oracle** that knows what the estimate has to learn.
 *
 * The estimate counts identity-known visits exactly and the rest as "rest bursts ÷ bursts per
 * visit" (see the README, "People, not MACs"). The oracle is given the world's own bursts per
 * rest visit — Σ rest bursts ÷ Σ (true visitors − identity-known visitors) over all the world's
 * days, i.e. the burst rate and mean dwell known exactly — and divides each day's rest bursts by
 * it. What is left in its error is the day's own draw of visits (a day of long stays sends more
 * bursts per visitor than a day of short ones), which no estimator working from burst counts can
 * see: the records carry a time and an RSSI per sensor, not which phone sent a one-burst MAC.
 *
 * Occupancy likewise: the oracle divides each 15-minute interval's inside bursts by the world's
 * own bursts per phone inside and interval (Σ inside bursts ÷ Σ (true mean inside − known
 * inside) over all the world's intervals), and its mean absolute error is a share of the mean
 * occupancy, as `scorePeople` scores it.
 *
 * Worlds: issue 14's set — rotating share of randomized phones 0, 0.3, 0.6, 0.9 and the realistic
 * preset; burst gaps 5–30 s and 2 min; a small and a large shop — each `DAYS` (default 14) days of
 * one shop with 300 visitors a day. Printed per world: mean and worst |error| of the oracle, of
 * each day alone (`analyze`), and of the days pooled (`poolPeople`).
 *
 * Usage: `npx tsx bench/tools/peopleFloor.ts [DAYS] [SEED]` (about 1.5 min for 14 days).
 *
 * A tool, not a bench: it lives under bench/tools/ so `npm run bench` does not run it.
 */
import { fileURLToPath } from "node:url";
import { analyze } from "../../src/analysis/analyze.ts";
import { poolPeople } from "../../src/kernels/people/poolPeople.ts";
import { scorePeople, type PeopleScore } from "../../src/kernels/people/scorePeople.ts";
import { createWorld, type WorldOptions } from "../../src/sim/createWorld.ts";
import { peopleTruth } from "../../src/sim/truth/peopleTruth.ts";

/** The worlds measured, by name. */
export const FLOOR_WORLDS: readonly (readonly [string, WorldOptions])[] = [
  ["rotation 0", { rotation: 0 }],
  ["rotation 0.3, gaps 5–30 s", { rotation: 0.3, macs: { burstGapS: [5, 30] } }],
  ["rotation 0.6, large shop", { rotation: 0.6, shopSizeM: [24, 18] }],
  ["rotation 0.9, gaps 2 min", { rotation: 0.9, macs: { burstGapS: 120 } }],
  ["rotation 0.9, small shop", { rotation: 0.9, shopSizeM: [10, 8] }],
  ["realistic preset", { rotation: "realistic" }],
];

/** Relative errors (estimate ÷ truth − 1) per shop-day: the oracle's, and footfall's scores (`scorePeople`) alone and pooled. */
export interface FloorResult {
  readonly oracle: readonly number[];
  readonly daily: PeopleScore;
  readonly pooled: PeopleScore;
  /** The oracle's occupancy: Σ |estimate − truth| over the intervals, phones. */
  readonly oracleOccupancyAbs: number;
  /** Σ true mean inside over the intervals, phones. */
  readonly occupancyTruth: number;
  /** Share of the people counted by burst rate (not identity-known). */
  readonly restShare: number;
}

/**
 * Measures one world of `days` days: footfall's estimates alone and pooled, scored against the
 * truth, beside the oracle's.
 *
 * @example
 * const { oracle, daily } = await measureFloor({ seed: 700, rotation: 0.9 }, 7);
 */
export async function measureFloor(options: WorldOptions, days: number): Promise<FloorResult> {
  const world = createWorld({ shops: 1, visitorsPerDay: 300, passersByPerDay: 3000, ...options, days });
  const shop = world.shops[0]!;
  const truth = peopleTruth(world);
  const estimates = (await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, proximity: false, quality: false })).people;
  const daily = scorePeople(estimates, truth);
  const pooled = scorePeople(poolPeople(estimates), truth);
  // The world's own bursts per rest visit, and per phone inside an interval: what the estimate learns.
  let bursts = 0;
  let rest = 0;
  let insideBursts = 0;
  let restInside = 0;
  estimates.forEach((e, i) => {
    const day = daily.days[i]!;
    bursts += e.restBursts;
    rest += day.truth - e.knownVisitors;
    e.occupancy.forEach((o, j) => {
      insideBursts += o.insideBursts;
      restInside += day.trueInside[j]! - o.knownInside;
    });
  });
  const perVisit = bursts / rest;
  const perPhone = insideBursts / restInside;
  let oracleOccupancyAbs = 0;
  let occupancyTruth = 0;
  const oracle = estimates.map((e, i) => {
    const day = daily.days[i]!;
    e.occupancy.forEach((o, j) => {
      oracleOccupancyAbs += Math.abs(o.knownInside + (perPhone > 0 ? o.insideBursts / perPhone : 0) - day.trueInside[j]!);
      occupancyTruth += day.trueInside[j]!;
    });
    return (e.knownVisitors + (perVisit > 0 ? e.restBursts / perVisit : 0)) / day.truth - 1;
  });
  return { oracle, daily, pooled, oracleOccupancyAbs, occupancyTruth, restShare: rest / daily.truth };
}

const percent = (x: number): string => `${(x * 100).toFixed(1)} %`;
const meanAbs = (a: readonly number[]): number => a.reduce((s, x) => s + Math.abs(x), 0) / a.length;
const worst = (a: readonly number[]): number => Math.max(...a.map(Math.abs));
const cells = (a: readonly number[]): string => `${percent(meanAbs(a))} | ${percent(worst(a))}`;

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const days = Number(process.argv[2] ?? 14);
  const seed = Number(process.argv[3] ?? 700);
  console.log(`${days} days of one shop, 300 visitors a day. Visitors: mean |error| | worst day; occupancy: MAE as a share of the mean\n`);
  console.log("| world | counted by rate | visitors, oracle | | a day alone | | pooled | | occupancy, oracle | a day alone | pooled |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|");
  const errors = (score: PeopleScore): number[] => score.days.map((d) => d.error);
  const all = { oracle: [] as number[], daily: [] as number[], pooled: [] as number[], dailyHeld: 0, pooledHeld: 0, oracleAbs: 0, dailyAbs: 0, pooledAbs: 0, truth: 0 };
  for (const [i, [name, options]] of FLOOR_WORLDS.entries()) {
    const w = await measureFloor({ seed: seed + i, ...options }, days);
    all.oracle.push(...w.oracle);
    all.daily.push(...errors(w.daily));
    all.pooled.push(...errors(w.pooled));
    all.dailyHeld += w.daily.covered;
    all.pooledHeld += w.pooled.covered;
    all.oracleAbs += w.oracleOccupancyAbs;
    all.dailyAbs += w.daily.occupancyMae * w.occupancyTruth;
    all.pooledAbs += w.pooled.occupancyMae * w.occupancyTruth;
    all.truth += w.occupancyTruth;
    const occupancy = [w.oracleOccupancyAbs / w.occupancyTruth, w.daily.occupancyMae, w.pooled.occupancyMae].map(percent).join(" | ");
    console.log(`| ${name} | ${Math.max(0, w.restShare * 100).toFixed(0)} % | ${cells(w.oracle)} | ${cells(errors(w.daily))} | ${cells(errors(w.pooled))} | ${occupancy} |`);
  }
  const occupancy = [all.oracleAbs, all.dailyAbs, all.pooledAbs].map((abs) => percent(abs / all.truth)).join(" | ");
  console.log(`| all ${all.oracle.length} shop-days | | ${cells(all.oracle)} | ${cells(all.daily)} | ${cells(all.pooled)} | ${occupancy} |`);
  console.log(`\nfootfall's 90 % interval held the truth on ${all.dailyHeld} of ${all.daily.length} shop-days alone, ${all.pooledHeld} pooled`);
}
