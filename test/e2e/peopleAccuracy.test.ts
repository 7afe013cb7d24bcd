/**
 * Accuracy of the people estimate (`PeopleEstimator`, with the defaults) against the simulator's
 * person-level truth, on worlds whose phones rotate their MACs (0 %, 30 %, 60 %, 90 % of the
 * randomizing phones; burst gaps from 5 s to 2 min; small, default and large shops) and on a world
 * without rotation, where the estimate must reduce to today's MAC-level figures.
 *
 * Scored per shop-day: visitors (people with an inside visit that day, `world.visits`) against the
 * estimate and its 90 % interval; occupancy per 15 min against the exact mean number of visitors
 * inside (`meanOccupancy`); and the precision / recall of the rotation links (a visitor session
 * set aside as a piece of a rotating phone's visit, against the truth that its person used more
 * than one MAC in the visit). Small worlds (one or two shops, 300 visitors a day) keep it quick.
 * `ACCURACY_FULL=1` prints every figure.
 *
 * The goals of issue 14 are visitors error ≤ 3 % on average and ≤ 6 % at worst, interval coverage
 * ≥ 85 %, occupancy MAE ≤ 10 % of the mean occupancy. Without rotation they hold and are asserted;
 * under rotation the estimator does not reach them (see the README, "People, not MACs": the
 * burst count per visit is learned from the ~28 universal-MAC visits of a shop-day, whose
 * coefficient of variation of 1.2 alone puts ~22 % of sampling error on any such estimate), so
 * those worlds assert the levels reached today as regression guards, and that the 90 % interval
 * holds the truth.
 * One world adds slow fading of the RSSI (`shadowingDb` 6), which hid the RSSI match of rotation
 * links (recall 0.76) until short visits were linked on a shared sensor alone (`linkShortMs`: 0.97).
 * Two weeks of one shop score the days pooled (`poolPeople`): days whose stays are drawn alike,
 * and days whose stays differ by ±15 % (`dwellDayVariation`), where pooling gains less.
 */
import { describe, expect, it } from "vitest";
import { analyze } from "../../src/analyze.ts";
import { linkedVisits, peopleEstimatorOptions, poolPeople, type OccupancyInterval, type PeopleEstimate } from "../../src/kernels/PeopleEstimator.ts";
import { scorePeople } from "../../src/kernels/scorePeople.ts";
import { scoreAgainstTruth } from "../../src/kernels/scoreAgainstTruth.ts";
import type { ClassifiedSession } from "../../src/kernels/VisitClassifier.ts";
import { createWorld, type WorldOptions } from "../../src/sim/createWorld.ts";
import { peopleTruth } from "../../src/sim/peopleTruth.ts";

interface WorldGoals {
  /** Largest mean |relative error| of visitors per shop-day. */
  readonly meanError: number;
  /** Largest |relative error| of any shop-day. */
  readonly maxError: number;
  /** Largest occupancy MAE as a share of mean occupancy. */
  readonly occupancyMae: number;
  /**
   * Largest MAE of the live occupancy (each interval from the day so far, `liveOccupancy`). No
   * goal is set for it: these are regression guards, measured with a margin. Every world here is
   * a stream's first day, the live estimate's hardest: staff arriving after opening count as
   * shoppers until present 4.8 h, and the burst rate comes from the few visits so far.
   */
  readonly liveOccupancyMae: number;
}

const GOALS: Omit<WorldGoals, "liveOccupancyMae"> = { meanError: 0.03, maxError: 0.06, occupancyMae: 0.1 };
const base = { visitorsPerDay: 300, passersByPerDay: 3000 } as const;

const worlds: Record<string, { options: WorldOptions; goals: WorldGoals; rotation: boolean }> = {
  "rotation off": { options: { seed: 31, shops: 2, ...base }, goals: { ...GOALS, meanError: 0.02, maxError: 0.02, liveOccupancyMae: 0.16 }, rotation: false },
  "rotation 0 (burst model)": { options: { seed: 32, shops: 1, rotation: 0, ...base }, goals: { ...GOALS, meanError: 0.02, maxError: 0.02, liveOccupancyMae: 0.14 }, rotation: false },
  // Regression guards (measured today, with a margin): the goals are not met yet under rotation.
  "rotation 0.3, gaps 5–30 s": { options: { seed: 33, shops: 1, rotation: 0.3, macs: { burstGapS: [5, 30] }, ...base }, goals: { meanError: 0.11, maxError: 0.11, occupancyMae: 0.14, liveOccupancyMae: 0.17 }, rotation: true },
  "rotation 0.6, large shop": { options: { seed: 34, shops: 1, rotation: 0.6, shopSizeM: [24, 18], ...base }, goals: { meanError: 0.12, maxError: 0.12, occupancyMae: 0.17, liveOccupancyMae: 0.42 }, rotation: true },
  "rotation 0.9, 2-min gaps": { options: { seed: 35, shops: 1, rotation: 0.9, macs: { burstGapS: 120 }, ...base }, goals: { meanError: 0.14, maxError: 0.14, occupancyMae: 0.1, liveOccupancyMae: 0.13 }, rotation: true },
  "rotation 0.9, small shop": { options: { seed: 36, shops: 1, rotation: 0.9, shopSizeM: [10, 8], ...base }, goals: { meanError: 0.35, maxError: 0.35, occupancyMae: 0.5, liveOccupancyMae: 1.3 }, rotation: true },
  // Slow fading (6 dB): a screen-on piece's peak is its luckiest burst, so the next MAC's one
  // burst often reads more than linkRssiDb below it; linkShortMs keeps such pieces linked.
  "realistic preset, 6 dB shadowing": { options: { seed: 38, shops: 2, rotation: "realistic", shadowingDb: 6, ...base }, goals: { meanError: 0.15, maxError: 0.26, occupancyMae: 0.21, liveOccupancyMae: 0.33 }, rotation: true },
  // The demo's world: the realistic preset (80 % of randomizing phones rotate), three shops.
  "realistic preset": { options: { seed: 37, shops: 3, rotation: "realistic", ...base }, goals: { meanError: 0.33, maxError: 0.55, occupancyMae: 0.22, liveOccupancyMae: 0.44 }, rotation: true },
};

interface WorldScore {
  readonly errors: number[];
  readonly covered: number;
  readonly days: number;
  readonly occupancyMae: number;
  /** The same for the live estimate (`liveOccupancy`: each interval from the day so far). */
  readonly liveOccupancyMae: number;
  readonly linkPrecision: number;
  readonly linkRecall: number;
  readonly lines: string[];
  readonly sessions: ClassifiedSession[];
}

async function score(options: WorldOptions): Promise<WorldScore> {
  const world = createWorld(options);
  const lines: string[] = [];
  const all: ClassifiedSession[] = [];
  const estimates: PeopleEstimate[] = [];
  const live: OccupancyInterval[] = [];
  const macVisitors = new Map<string, number>();
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const shop of world.shops) {
    const result = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, proximity: false, quality: false, liveOccupancy: true });
    all.push(...result.sessions);
    live.push(...result.liveOccupancy);
    estimates.push(...result.people);
    for (const d of result.days) macVisitors.set(`${d.shopId} ${d.start}`, d.visitors);
    const visits = world.visits(shop.id);
    // Link precision / recall: a visitor session is a piece when its person used several heard MACs.
    const pieces = new Map<string, boolean>();
    for (const v of visits) {
      if (v.kind !== "visitor") continue;
      const heard = v.macs.filter((m) => m.records > 0).length;
      for (const m of v.macs) pieces.set(m.mac, heard > 1);
    }
    const visitorSessions = result.sessions.filter((s) => s.kind === "visitor");
    const linked = linkedVisits(result.sessions, peopleEstimatorOptions({ timeZone: shop.timeZone }));
    for (const s of visitorSessions) {
      const piece = pieces.get(s.device) === true;
      if (linked.has(s) && piece) tp++;
      else if (linked.has(s)) fp++;
      else if (piece) fn++;
    }
  }
  // The one scoring rule (people who came inside, the interval, occupancy against the true mean inside).
  const truth = peopleTruth(world);
  const scored = scorePeople(estimates, truth);
  // Live: an interval still unknown (no burst rate yet) counts as wholly wrong.
  let liveAbs = 0;
  let liveTruth = 0;
  for (const o of live) {
    const t = truth.inside(o.shopId, o.start, o.end);
    liveAbs += Number.isNaN(o.inside) ? t : Math.abs(o.inside - t);
    liveTruth += t;
  }
  scored.days.forEach((d, i) => {
    const p = estimates[i]!;
    lines.push(
      `${d.shopId} ${d.label}: truth ${d.truth}, estimate ${p.visitors.toFixed(1)} [${p.visitorsLow}, ${p.visitorsHigh}] ` +
        `(${(d.error * 100).toFixed(1)} %; MAC-level ${macVisitors.get(`${d.shopId} ${d.start}`)}), known ${p.knownVisitors}, ` +
        `set aside ${p.linkedSessions}, rest ${p.restVisitors.toFixed(1)}, ${p.burstsPerMinute.toFixed(2)} bursts/min, W ${(p.meanDwellMs / 60_000).toFixed(1)} min`,
    );
  });
  return {
    errors: scored.days.map((d) => d.error),
    covered: scored.covered,
    days: scored.days.length,
    occupancyMae: scored.occupancyMae,
    liveOccupancyMae: liveAbs / liveTruth,
    linkPrecision: tp + fp === 0 ? Number.NaN : tp / (tp + fp),
    linkRecall: tp + fn === 0 ? Number.NaN : tp / (tp + fn),
    lines,
    sessions: all,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

describe("people estimate against person-level truth (defaults)", () => {
  for (const [name, { options, goals, rotation }] of Object.entries(worlds)) {
    it(`holds its goals on the ${name} world`, async () => {
      const s = await score(options);
      const meanError = s.errors.reduce((a, e) => a + Math.abs(e), 0) / s.errors.length;
      const maxError = Math.max(...s.errors.map(Math.abs));
      if (process.env.ACCURACY_FULL) {
        console.log(
          `${name}: visitors error mean ${pct(meanError)} max ${pct(maxError)}, 90 % interval covers ${s.covered}/${s.days}, ` +
            `occupancy MAE ${pct(s.occupancyMae)} (live ${pct(s.liveOccupancyMae)}), links precision ${pct(s.linkPrecision)} recall ${pct(s.linkRecall)}\n  ` +
            s.lines.join("\n  "),
        );
      }
      expect(s.days).toBeGreaterThan(0);
      expect(meanError).toBeLessThanOrEqual(goals.meanError);
      expect(maxError).toBeLessThanOrEqual(goals.maxError);
      expect(s.occupancyMae).toBeLessThanOrEqual(goals.occupancyMae);
      expect(s.liveOccupancyMae).toBeLessThanOrEqual(goals.liveOccupancyMae);
      if (!rotation) {
        // Without rotation, today's MAC-level figures hold.
        const world = createWorld(options);
        const acc = scoreAgainstTruth(s.sessions, world.truth(), { timeZone: world.shops[0]!.timeZone });
        expect(acc.visitor.f1).toBeGreaterThanOrEqual(0.98);
        expect(acc.medianAbsDwellErrorMs).toBeLessThanOrEqual(30_000);
      } else {
        // The links find the pieces of rotating phones' visits, and the 90 % interval holds the truth.
        expect(s.linkRecall).toBeGreaterThanOrEqual(0.85);
        // 90 % intervals: at most one shop-day per world outside (pooled over the worlds, ≥ 85 %).
        expect(s.covered).toBeGreaterThanOrEqual(s.days - 1);
      }
    }, 120_000);
  }
});

describe("people estimate of a shop's week, its days pooled (poolPeople)", () => {
  // A week of the realistic preset, once with every day's stays drawn alike and once with days
  // that differ in how long people stay (±15 %), where pooling gains less: a day's own figure is
  // then partly right where the shop's is not. Guards are measured, with a margin.
  const weeks: Record<string, { options: WorldOptions; meanError: number; maxError: number; gains: boolean }> = {
    "days alike": { options: { seed: 39, shops: 1, days: 7, rotation: "realistic", ...base }, meanError: 0.09, maxError: 0.17, gains: true },
    "days differing ±15 %": { options: { seed: 39, shops: 1, days: 7, rotation: "realistic", dwellDayVariation: 0.15, ...base }, meanError: 0.14, maxError: 0.26, gains: false },
  };
  for (const [name, { options, meanError, maxError, gains }] of Object.entries(weeks)) {
    it(`holds its guards on a week with ${name}, and its interval still holds the truth`, async () => {
      const world = createWorld(options);
      const shop = world.shops[0]!;
      const { people } = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, proximity: false, quality: false });
      const truth = peopleTruth(world);
      const alone = scorePeople(people, truth);
      const pooled = scorePeople(poolPeople(people), truth);
      const meanAbs = (s: typeof alone) => s.days.reduce((a, d) => a + Math.abs(d.error), 0) / s.days.length;
      if (process.env.ACCURACY_FULL) {
        console.log(
          `a week pooled (${name}): visitors error mean ${pct(meanAbs(pooled))} (alone ${pct(meanAbs(alone))}), interval covers ${pooled.covered}/${pooled.days.length} ` +
            `(alone ${alone.covered}), occupancy MAE ${pct(pooled.occupancyMae)} (alone ${pct(alone.occupancyMae)})\n  ` +
            pooled.days.map((d, i) => `${d.label} ${pct(d.error)} (alone ${pct(alone.days[i]!.error)})`).join("; "),
        );
      }
      expect(pooled.days.length).toBeGreaterThanOrEqual(7);
      if (gains) expect(meanAbs(pooled)).toBeLessThan(meanAbs(alone));
      expect(meanAbs(pooled)).toBeLessThanOrEqual(meanError);
      expect(Math.max(...pooled.days.map((d) => Math.abs(d.error)))).toBeLessThanOrEqual(maxError);
      expect(pooled.covered).toBeGreaterThanOrEqual(pooled.days.length - 1);
    }, 180_000);
  }
});
