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
import { analyze } from "../../src/analyze.ts";
import { poolPeople } from "../../src/kernels/PeopleEstimator.ts";
import { createWorld, type WorldOptions } from "../../src/sim/createWorld.ts";
import { peopleTruth } from "../../src/sim/peopleTruth.ts";

/** The worlds measured, by name. */
export const FLOOR_WORLDS: readonly (readonly [string, WorldOptions])[] = [
  ["rotation 0", { rotation: 0 }],
  ["rotation 0.3, gaps 5–30 s", { rotation: 0.3, macs: { burstGapS: [5, 30] } }],
  ["rotation 0.6, large shop", { rotation: 0.6, shopSizeM: [24, 18] }],
  ["rotation 0.9, gaps 2 min", { rotation: 0.9, macs: { burstGapS: 120 } }],
  ["rotation 0.9, small shop", { rotation: 0.9, shopSizeM: [10, 8] }],
  ["realistic preset", { rotation: "realistic" }],
];

/** Relative errors (estimate ÷ truth − 1) per shop-day, of the three counts, and whether footfall's 90 % intervals held the truth. */
export interface FloorErrors {
  readonly oracle: number[];
  readonly daily: number[];
  readonly pooled: number[];
  readonly dailyHeld: boolean[];
  readonly pooledHeld: boolean[];
}

/** Occupancy per interval: Σ |estimate − truth| and Σ truth (phones inside), of the oracle, of each day alone and of the days pooled. */
export interface FloorOccupancy {
  oracleAbs: number;
  dailyAbs: number;
  pooledAbs: number;
  truth: number;
}

/**
 * Measures one world: its shop-days' errors and the world's bursts per rest visit.
 *
 * @example
 * const { errors } = await measureFloor({ seed: 700, rotation: 0.9 }, 7);
 */
export async function measureFloor(
  options: WorldOptions,
  days: number,
): Promise<{ errors: FloorErrors; occupancy: FloorOccupancy; burstsPerRestVisit: number; restShare: number }> {
  const world = createWorld({ shops: 1, visitorsPerDay: 300, passersByPerDay: 3000, ...options, days });
  const shop = world.shops[0]!;
  const truth = peopleTruth(world);
  const daily = (await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, proximity: false, quality: false })).people;
  const truths = daily.map((e) => truth.visitors(shop.id, e.start, e.end));
  let bursts = 0;
  let rest = 0;
  let people = 0;
  daily.forEach((e, i) => {
    bursts += e.restBursts;
    rest += truths[i]! - e.knownVisitors;
    people += truths[i]!;
  });
  const perVisit = bursts / rest;
  const intervals = daily.flatMap((e) => e.occupancy).map((o) => ({ o, truth: truth.inside(shop.id, o.start, o.end) }));
  let insideBursts = 0;
  let restInside = 0;
  for (const { o, truth: inside } of intervals) {
    insideBursts += o.insideBursts;
    restInside += inside - o.knownInside;
  }
  const perPhone = insideBursts / restInside;
  const pooled = poolPeople(daily);
  const pooledIntervals = pooled.flatMap((e) => e.occupancy);
  if (pooledIntervals.some((o, i) => o.start !== intervals[i]?.o.start) || pooledIntervals.length !== intervals.length) {
    throw new Error("pooled occupancy intervals differ from the days' own");
  }
  const pooledInside = pooledIntervals.map((o) => o.inside);
  const occupancy: FloorOccupancy = { oracleAbs: 0, dailyAbs: 0, pooledAbs: 0, truth: 0 };
  intervals.forEach(({ o, truth: inside }, i) => {
    occupancy.oracleAbs += Math.abs(o.knownInside + (perPhone > 0 ? o.insideBursts / perPhone : 0) - inside);
    occupancy.dailyAbs += Math.abs(o.inside - inside);
    occupancy.pooledAbs += Math.abs(pooledInside[i]! - inside);
    occupancy.truth += inside;
  });
  const error = (visitors: number, i: number): number => visitors / truths[i]! - 1;
  return {
    errors: {
      oracle: daily.map((e, i) => error(e.knownVisitors + (perVisit > 0 ? e.restBursts / perVisit : 0), i)),
      daily: daily.map((e, i) => error(e.visitors, i)),
      pooled: pooled.map((e, i) => error(e.visitors, i)),
      dailyHeld: daily.map((e, i) => e.visitorsLow <= truths[i]! && truths[i]! <= e.visitorsHigh),
      pooledHeld: pooled.map((e, i) => e.visitorsLow <= truths[i]! && truths[i]! <= e.visitorsHigh),
    },
    occupancy,
    burstsPerRestVisit: perVisit,
    restShare: rest / people,
  };
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
  const all: FloorErrors = { oracle: [], daily: [], pooled: [], dailyHeld: [], pooledHeld: [] };
  const occupancy: FloorOccupancy = { oracleAbs: 0, dailyAbs: 0, pooledAbs: 0, truth: 0 };
  const mae = (o: FloorOccupancy): string => `${percent(o.oracleAbs / o.truth)} | ${percent(o.dailyAbs / o.truth)} | ${percent(o.pooledAbs / o.truth)}`;
  for (const [i, [name, options]] of FLOOR_WORLDS.entries()) {
    const world = await measureFloor({ seed: seed + i, ...options }, days);
    for (const key of ["oracle", "daily", "pooled"] as const) all[key].push(...world.errors[key]);
    all.dailyHeld.push(...world.errors.dailyHeld);
    all.pooledHeld.push(...world.errors.pooledHeld);
    for (const key of ["oracleAbs", "dailyAbs", "pooledAbs", "truth"] as const) occupancy[key] += world.occupancy[key];
    const { errors } = world;
    console.log(`| ${name} | ${Math.max(0, world.restShare * 100).toFixed(0)} % | ${cells(errors.oracle)} | ${cells(errors.daily)} | ${cells(errors.pooled)} | ${mae(world.occupancy)} |`);
  }
  console.log(`| all ${all.oracle.length} shop-days | | ${cells(all.oracle)} | ${cells(all.daily)} | ${cells(all.pooled)} | ${mae(occupancy)} |`);
  const held = (a: readonly boolean[]): string => `${a.filter(Boolean).length} of ${a.length}`;
  console.log(`\nfootfall's 90 % interval held the truth on ${held(all.dailyHeld)} shop-days alone, ${held(all.pooledHeld)} pooled`);
}
