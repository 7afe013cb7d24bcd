/**
 * Accuracy of the people estimate (`PeopleEstimator`) against the simulator's person-level truth,
 * scored the way a real deployment works: a shop's burst yardstick is **calibrated on one day
 * counted at the door** (the simulator's door counter, `countedTruthCsv(…, { shape: "inside" })`,
 * people inside per quarter hour of the world's first day, read with `parseTruth`) and the
 * estimate is **scored on the other days only**, never on the counts it was fitted on. Worlds:
 * phones that rotate their MACs (0 %, 30 %, 60 %, 90 % of the randomizing phones; burst gaps from
 * 5 s to 2 min; small, default and large shops), the realistic preset, phones as different as real
 * ones (`phones: "real"`), and a world without rotation, where the estimate must reduce to
 * today's MAC-level figures. Three days each: day 1 counted, days 2–3 scored.
 *
 * Scored per shop-day through `scorePeople` against `peopleTruth`: visitors (people with an inside
 * visit that day) against the estimate and its 90 % interval; occupancy per 15 min against the
 * exact mean number of visitors inside; the live occupancy (each interval from the day so far);
 * and the precision / recall of the rotation links (a visitor session set aside as a piece of a
 * rotating phone's visit, against the truth that its person used more than one MAC in the visit).
 * `ACCURACY_FULL=1` prints every figure.
 *
 * As installed (no calibration: the yardstick from real phones, 1.44 bursts per person per minute,
 * docs/people.md), the simulator's older phone models (rotation 0.3…0.9, "realistic") burst far
 * more — or, with 2-min gaps, far less — often than real phones, so the estimate is off by the
 * ratio of their rates; that is expected (the simulator was easier than reality) and is what a
 * calibration is for. The as-installed check asserts what the design promises there: finite bounds
 * on every estimate, the 90 % interval holding the truth on ≥ 85 % of the shop-days of worlds
 * with real phones, and the estimate within a factor of the truth (see `installedRatio`).
 *
 * The goals of issue 14 (visitors error ≤ 3 % on average, ≤ 6 % at worst, occupancy MAE ≤ 10 %
 * of the mean occupancy) hold without rotation and are asserted there; under rotation a day's
 * calibration does not reach them — one counted day moves the yardstick only part of the way
 * from real phones' 1.44 to the shop's own rate (the counts update the prior, precision-weighted,
 * and one day says nothing of the day-to-day spread but its prior τ = 0.4), and the visitors
 * figure divides by the scored day's own mean stay — so those worlds assert the
 * levels measured, with a margin, as regression guards, and that the 90 % interval holds the truth.
 */
import { describe, expect, it } from "vitest";
import { analyze } from "../../src/analysis/analyze.ts";
import { calibrate, calibrationFromEstimates } from "../../src/analysis/calibrate.ts";
import { realPhonesPrior } from "../../src/kernels/calibration/burstYardstick.ts";
import type { Calibration } from "../../src/kernels/calibration/Calibration.ts";
import { hasPeopleEstimate } from "../../src/kernels/people/hasPeopleEstimate.ts";
import { linkedVisits } from "../../src/kernels/phones/linkedVisits.ts";
import { peopleEstimatorOptions } from "../../src/kernels/people/peopleEstimatorOptions.ts";
import { poolPeople } from "../../src/kernels/people/poolPeople.ts";
import type { OccupancyInterval, PeopleEstimate } from "../../src/kernels/people/PeopleEstimate.ts";
import { scorePeople } from "../../src/kernels/people/scorePeople.ts";
import { scoreAgainstTruth } from "../../src/kernels/visits/scoreAgainstTruth.ts";
import type { ClassifiedSession } from "../../src/kernels/visits/VisitClassifier.ts";
import { countedTruthCsv } from "../../src/sim/truth/countedTruthCsv.ts";
import { createWorld, type WorldOptions } from "../../src/sim/createWorld.ts";
import { peopleTruth } from "../../src/sim/truth/peopleTruth.ts";
import { parseTruth } from "../../src/truth/parseTruth.ts";

/** Guards on the days after the counted one, with the calibration fitted on the counted day. */
interface WorldGoals {
  /** Largest mean |relative error| of visitors per scored shop-day. */
  readonly meanError: number;
  /** Largest |relative error| of any scored shop-day. */
  readonly maxError: number;
  /** Largest occupancy MAE as a share of mean occupancy. */
  readonly occupancyMae: number;
  /** Largest MAE of the live occupancy (each interval from the day so far, `liveOccupancy`), same scale. */
  readonly liveOccupancyMae: number;
}

/**
 * As installed (no calibration), every shop-day's visitors ÷ truth lies in [1 ÷ x, x]. Measured
 * 2026-11-27 at b2d234f (all three days): 0.99–1.01 without rotation, 0.97–1.02 (rotation 0),
 * 1.95–2.31 (rotation 0.3, 5–30 s gaps), 1.43–1.49 (0.6, large shop), 0.40–0.46 (0.9, 2-min
 * gaps), 1.26–1.47 (0.9, small shop), 0.94–1.70 (realistic, 6 dB), 0.93–1.70 (realistic),
 * 1.08–1.65 (real phones). The 90 % interval held the truth on 6 of 6 shop-days with real phones
 * (asserted: ≥ 85 %), and on 0/3, 3/3, 0/3, 3/3, 6/6, 9/9 of the older models' rotating worlds
 * (not asserted: their rates are not real phones'). Worlds with real phones are held to
 * [0.5, 2]; the older phone models to [1/3, 3]. Every bound was finite (asserted everywhere).
 */
const installedRatio = { real: 2, older: 3 } as const;

const days = 3;
const base = { visitorsPerDay: 300, passersByPerDay: 3000, days } as const;

// Measured 2026-11-27 at b2d234f (calibration on day 1, days 2–3 scored; visitors mean / max
// |error|, occupancy MAE, live occupancy MAE), each goal a modest margin above (the estimator was
// changing that day: earlier runs gave figures within ±2 points of these). Under rotation every
// scored shop-day's 90 % interval held the truth (2/2, 4/4 or 6/6 a world; the calibrated
// intervals are wide above, e.g. [76, 4702] for 382 people, so this says little) and the 90 %
// occupancy band held the true mean on 89.6–99.0 % of the quarter hours. Without rotation the
// visitors interval is about one person wide around the identity-known count and misses a
// MAC-level error of a few people (2 of 4 and 2 of 2 scored days held), so it is not asserted there.
const worlds: Record<string, { options: WorldOptions; goals: WorldGoals; rotation: boolean; realPhones: boolean }> = {
  // 0.9 / 1.5 %, 3.1 %, live 7.8 % (the counts say 0.17 bursts a minute: single probes, so the
  // calibration is flagged untrusted, far from real phones, or there is none where nothing but
  // identity-known visits is heard; nearly everyone is identity-known).
  "rotation off": { options: { seed: 31, shops: 2, rotation: "off", ...base }, goals: { meanError: 0.02, maxError: 0.03, occupancyMae: 0.05, liveOccupancyMae: 0.1 }, rotation: false, realPhones: false },
  // 2.0 / 2.7 %, 5.5 %, live 10.0 % (13.5 % in an earlier run).
  "rotation 0 (burst model)": { options: { phones: "off", seed: 32, shops: 1, rotation: 0, ...base }, goals: { meanError: 0.03, maxError: 0.05, occupancyMae: 0.07, liveOccupancyMae: 0.17 }, rotation: false, realPhones: false },
  // 16.3 / 19.8 %, 28.5 %, live 30.8 %: the counted day says 5.7 bursts a minute, the fit 3.7.
  "rotation 0.3, gaps 5–30 s": { options: { phones: "off", seed: 33, shops: 1, rotation: 0.3, macs: { burstGapS: [5, 30] }, ...base }, goals: { meanError: 0.2, maxError: 0.24, occupancyMae: 0.33, liveOccupancyMae: 0.36 }, rotation: true, realPhones: false },
  // 3.2 / 3.9 %, 19.2 %, live 19.1 %.
  "rotation 0.6, large shop": { options: { phones: "off", seed: 34, shops: 1, rotation: 0.6, shopSizeM: [24, 18], ...base }, goals: { meanError: 0.05, maxError: 0.06, occupancyMae: 0.22, liveOccupancyMae: 0.22 }, rotation: true, realPhones: false },
  // 30.9 / 31.7 %, 22.1 %, live 21.4 %: the counted day says 0.57 bursts a minute, the fit 0.79.
  "rotation 0.9, 2-min gaps": { options: { phones: "off", seed: 35, shops: 1, rotation: 0.9, macs: { burstGapS: 120 }, ...base }, goals: { meanError: 0.38, maxError: 0.39, occupancyMae: 0.27, liveOccupancyMae: 0.26 }, rotation: true, realPhones: false },
  // 5.2 / 10.2 %, 20.3 %, live 21.0 %: a slow prober's one-burst sessions heard inside became
  // visits (knownVisits), which took the visitors' error from 6.6 / 12.6 % and put occupancy's
  // from 18.3 / 19.2 %.
  "rotation 0.9, small shop": { options: { phones: "off", seed: 36, shops: 1, rotation: 0.9, shopSizeM: [10, 8], ...base }, goals: { meanError: 0.11, maxError: 0.18, occupancyMae: 0.21, liveOccupancyMae: 0.22 }, rotation: true, realPhones: false },
  // Slow fading (6 dB): a screen-on piece's peak is its luckiest burst, so the next MAC's one
  // burst often reads more than linkRssiDb below it; linkShortMs keeps such pieces linked.
  // 17.7 / 27.2 %, 18.1 %, live 17.5 %.
  "realistic preset, 6 dB shadowing": { options: { phones: "off", seed: 38, shops: 2, rotation: "realistic", shadowingDb: 6, ...base }, goals: { meanError: 0.22, maxError: 0.34, occupancyMae: 0.22, liveOccupancyMae: 0.22 }, rotation: true, realPhones: false },
  // The demo's world: the realistic preset (80 % of randomizing phones rotate), three shops.
  // 18.2 / 32.2 %, 18.6 %, live 18.5 % (34.1 % at worst in an earlier run).
  "realistic preset": { options: { phones: "off", seed: 37, shops: 3, rotation: "realistic", ...base }, goals: { meanError: 0.22, maxError: 0.39, occupancyMae: 0.23, liveOccupancyMae: 0.23 }, rotation: true, realPhones: false },
  // Phones with real phones' heavy-tailed rates, extra devices and equipment (`phones: "real"`).
  // 14.7 / 27.4 %, 31.2 %, live 31.2 %.
  "real phones": { options: { seed: 40, shops: 2, phones: "real", ...base }, goals: { meanError: 0.2, maxError: 0.31, occupancyMae: 0.36, liveOccupancyMae: 0.36 }, rotation: true, realPhones: true },
};

interface WorldScore {
  /** Errors of the scored (not counted) shop-days, calibrated. */
  readonly errors: number[];
  readonly covered: number;
  readonly days: number;
  readonly occupancyMae: number;
  /** Occupancy intervals of the scored days whose band holds the true mean inside, as a share. */
  readonly intervalsCovered: number;
  readonly liveOccupancyMae: number;
  readonly linkPrecision: number;
  readonly linkRecall: number;
  /** As installed, every shop-day: visitors ÷ truth, intervals that held the truth, estimates with a non-finite bound. */
  readonly installed: { readonly ratios: number[]; readonly covered: number; readonly days: number; readonly occupancyMae: number; readonly nonFinite: number };
  readonly calibrations: Calibration[];
  readonly lines: string[];
  readonly sessions: ClassifiedSession[];
}

/** Estimates with a bound that is not finite (the design: finite wherever there is an estimate). */
function nonFiniteBounds(people: readonly PeopleEstimate[]): number {
  let n = 0;
  for (const p of people) {
    if (hasPeopleEstimate(p) && !(Number.isFinite(p.visitorsLow) && Number.isFinite(p.visitorsHigh))) n++;
    for (const o of p.occupancy) if (!Number.isNaN(o.inside) && !(Number.isFinite(o.insideLow) && Number.isFinite(o.insideHigh))) n++;
  }
  return n;
}

async function score(options: WorldOptions): Promise<WorldScore> {
  const world = createWorld(options);
  const truth = peopleTruth(world);
  const lines: string[] = [];
  const all: ClassifiedSession[] = [];
  const installed: PeopleEstimate[] = [];
  const estimates: PeopleEstimate[] = [];
  const live: OccupancyInterval[] = [];
  const calibrations: WorldScore["calibrations"] = [];
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const shop of world.shops) {
    const records = [...world.rawSignals(shop.id)];
    // As installed: every day with the prior from real phones.
    const plain = await analyze(records, { timeZone: shop.timeZone, proximity: false, quality: false, hourly: false });
    installed.push(...plain.people);
    // The door counter's first day, and the calibration fitted on it: what `calibrate()` does
    // (it analyses the counted days with the prior and pairs them with the counts), on the
    // first day's estimate made above rather than analysing that day a second time.
    const counted = plain.people[0]!;
    const door = parseTruth(countedTruthCsv(world, shop.id, counted.start, counted.end, { shape: "inside" }), `door-${shop.id}.csv`);
    const fit = calibrationFromEstimates([counted], door, { prior: realPhonesPrior, settings: { intervalMs: 900_000, timeZone: shop.timeZone }, minCoverage: 0.5 });
    calibrations.push(...fit.calibrations);
    const result = await analyze(records, { timeZone: shop.timeZone, proximity: false, quality: false, hourly: false, liveOccupancy: true, calibration: fit.file });
    all.push(...result.sessions);
    // Scored on the other days only, never on the counts the calibration was fitted on.
    estimates.push(...result.people.filter((p) => p.start >= counted.end));
    live.push(...result.liveOccupancy.filter((o) => o.start >= counted.end));
    // Link precision / recall: a visitor session is a piece when its person used several heard MACs.
    const pieces = new Map<string, boolean>();
    for (const v of world.visits(shop.id)) {
      if (v.kind !== "visitor") continue;
      const heard = v.macs.filter((m) => m.records > 0).length;
      for (const m of v.macs) pieces.set(m.mac, heard > 1);
    }
    const linked = linkedVisits(result.sessions, peopleEstimatorOptions({ timeZone: shop.timeZone }));
    for (const s of result.sessions) {
      if (s.kind !== "visitor") continue;
      const piece = pieces.get(s.device) === true;
      if (linked.has(s) && piece) tp++;
      else if (linked.has(s)) fp++;
      else if (piece) fn++;
    }
  }
  // The one scoring rule (people who came inside, the interval, occupancy against the true mean inside).
  const scored = scorePeople(estimates, truth);
  const scoredInstalled = scorePeople(installed, truth);
  // Live: an interval still unknown counts as wholly wrong.
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
      `${d.shopId} ${d.label}: truth ${d.truth}, estimate ${p.visitors.toFixed(1)} [${p.visitorsLow}, ${p.visitorsHigh}] (${(d.error * 100).toFixed(1)} %), ` +
        `known ${p.knownVisitors}, set aside ${p.linkedSessions}, rest ${p.restVisitors.toFixed(1)}, ${p.burstsPerMinute.toFixed(2)} bursts/min ` +
        `(${p.calibration === null ? "prior" : p.calibration.id}), W ${(p.meanDwellMs / 60_000).toFixed(1)} min; occupancy ${d.intervalsCovered}/${d.trueInside.length} intervals held`,
    );
  });
  return {
    errors: scored.days.map((d) => d.error),
    covered: scored.covered,
    days: scored.days.length,
    occupancyMae: scored.occupancyMae,
    intervalsCovered: scored.intervalsCovered / scored.intervals,
    liveOccupancyMae: liveAbs / liveTruth,
    linkPrecision: tp + fp === 0 ? Number.NaN : tp / (tp + fp),
    linkRecall: tp + fn === 0 ? Number.NaN : tp / (tp + fn),
    installed: {
      ratios: scoredInstalled.days.map((d) => d.visitors / d.truth),
      covered: scoredInstalled.covered,
      days: scoredInstalled.days.length,
      occupancyMae: scoredInstalled.occupancyMae,
      nonFinite: nonFiniteBounds(installed),
    },
    calibrations,
    lines,
    sessions: all,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

describe("people estimate against person-level truth (calibrated on a counted day, scored on the others)", () => {
  for (const [name, { options, goals, rotation, realPhones }] of Object.entries(worlds)) {
    it(`holds its goals on the ${name} world`, async () => {
      const s = await score(options);
      const meanError = s.errors.reduce((a, e) => a + Math.abs(e), 0) / s.errors.length;
      const maxError = Math.max(...s.errors.map(Math.abs));
      const i = s.installed;
      if (process.env.ACCURACY_FULL) {
        console.log(
          `${name}: visitors error mean ${pct(meanError)} max ${pct(maxError)}, 90 % interval covers ${s.covered}/${s.days}, ` +
            `occupancy MAE ${pct(s.occupancyMae)} (live ${pct(s.liveOccupancyMae)}), band holds ${pct(s.intervalsCovered)} of intervals, links precision ${pct(s.linkPrecision)} recall ${pct(s.linkRecall)}\n  ` +
            `as installed: visitors ÷ truth ${Math.min(...i.ratios).toFixed(2)}–${Math.max(...i.ratios).toFixed(2)}, interval covers ${i.covered}/${i.days}, ` +
            `occupancy MAE ${pct(i.occupancyMae)}, non-finite bounds ${i.nonFinite}\n  ` +
            `calibrations: ${s.calibrations.map((c) => `${c.shopId} ${c.burstsPerMinute.toFixed(2)}/min (counted ${c.countedBurstsPerMinute.toFixed(2)}, trusted ${c.trusted})`).join("; ") || "none"}\n  ` +
            s.lines.join("\n  "),
        );
      }
      // Scored on days after the counted one only.
      expect(s.days).toBe((options.shops ?? 1) * (days - 1));
      expect(meanError).toBeLessThanOrEqual(goals.meanError);
      expect(maxError).toBeLessThanOrEqual(goals.maxError);
      expect(s.occupancyMae).toBeLessThanOrEqual(goals.occupancyMae);
      expect(s.liveOccupancyMae).toBeLessThanOrEqual(goals.liveOccupancyMae);
      // As installed: finite bounds wherever there is an estimate, and the estimate within a factor of the truth.
      expect(i.nonFinite).toBe(0);
      expect(i.ratios).toHaveLength(i.days);
      const x = realPhones ? installedRatio.real : installedRatio.older;
      for (const r of i.ratios) {
        expect(r).toBeGreaterThanOrEqual(1 / x);
        expect(r).toBeLessThanOrEqual(x);
      }
      if (realPhones) expect(i.covered).toBeGreaterThanOrEqual(Math.ceil(0.85 * i.days));
      if (!rotation) {
        // Without rotation, today's MAC-level figures hold.
        const w = createWorld(options);
        const acc = scoreAgainstTruth(s.sessions, w.truth(), { timeZone: w.shops[0]!.timeZone });
        expect(acc.visitor.f1).toBeGreaterThanOrEqual(0.98);
        expect(acc.medianAbsDwellErrorMs).toBeLessThanOrEqual(30_000);
      } else {
        // The calibration is trusted, the links find the pieces of rotating phones' visits, and
        // the calibrated 90 % interval holds the truth: at most one scored shop-day per world outside.
        expect(s.calibrations).toHaveLength(options.shops!);
        for (const c of s.calibrations) expect(c.trusted, c.warnings.join("; ")).toBe(true);
        expect(s.linkRecall).toBeGreaterThanOrEqual(0.85);
        expect(s.covered).toBeGreaterThanOrEqual(s.days - 1);
        // …and the 90 % occupancy band holds the true mean on ≥ 85 % of the quarter hours, as on
        // the shop-days (measured 89.6–99.0 %).
        expect(s.intervalsCovered).toBeGreaterThanOrEqual(0.85);
      }
    }, 120_000);
  }
});

describe("people estimate of a shop's week, its days pooled (poolPeople)", () => {
  // A week of the realistic preset, once with every day's stays drawn alike and once with days
  // that differ in how long people stay (±15 %), where pooling gains less: a day's own figure is
  // then partly right where the shop's is not. As deployed: the first day counted at the door and
  // calibrated on with `calibrate()`, the six days after it analysed with that calibration,
  // pooled, and scored. Guards are measured, with a margin.
  // Measured 2026-11-27 with the calibration pinning its threshold (ea629b8; days 2–7 pooled;
  // visitors mean / max |error|, occupancy MAE): days alike 17.9 / 25.2 %, 14.5 % (alone 18.7 %
  // mean), the interval holding the truth on 6 of 6 days; days differing 16.6 / 34.9 %, 15.2 %
  // (alone 18.8 %), 6 of 6. Before the pin (b2d234f): 8.2 / 13.6 %, 15.0 % and 10.1 / 26.8 %,
  // 14.8 %: the threshold chosen on a door count of people inside fits occupancy, and moves the
  // day's visitors (Little's law over the sessions that threshold lets inside) — a known
  // regression of the simulated visitors, named in issue 34's notes, guarded here from growing.
  const weeks: Record<string, { options: WorldOptions; meanError: number; maxError: number; occupancyMae: number; gains: boolean }> = {
    "days alike": { options: { phones: "off", seed: 39, shops: 1, days: 7, rotation: "realistic", visitorsPerDay: 300, passersByPerDay: 3000 }, meanError: 0.2, maxError: 0.28, occupancyMae: 0.17, gains: true },
    "days differing ±15 %": { options: { phones: "off", seed: 39, shops: 1, days: 7, rotation: "realistic", dwellDayVariation: 0.15, visitorsPerDay: 300, passersByPerDay: 3000 }, meanError: 0.19, maxError: 0.38, occupancyMae: 0.17, gains: false },
  };
  for (const [name, { options, meanError, maxError, occupancyMae, gains }] of Object.entries(weeks)) {
    it(`holds its guards on a week with ${name}, and its interval still holds the truth`, async () => {
      const world = createWorld(options);
      const shop = world.shops[0]!;
      const countedEnd = world.startMs + 86_400_000;
      const door = parseTruth(countedTruthCsv(world, shop.id, world.startMs, countedEnd, { shape: "inside" }), "door.csv");
      const fit = await calibrate(world.rawSignals(shop.id, world.startMs, countedEnd), door, { timeZone: shop.timeZone });
      expect(fit.calibrations).toHaveLength(1);
      expect(fit.calibrations[0]!.trusted, fit.calibrations[0]!.warnings.join("; ")).toBe(true);
      const { people } = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, proximity: false, quality: false, hourly: false, calibration: fit.file });
      const after = people.filter((p) => p.start >= countedEnd);
      const truth = peopleTruth(world);
      const alone = scorePeople(after, truth);
      const pooled = scorePeople(poolPeople(after), truth);
      const meanAbs = (s: typeof alone) => s.days.reduce((a, d) => a + Math.abs(d.error), 0) / s.days.length;
      if (process.env.ACCURACY_FULL) {
        console.log(
          `a week pooled (${name}): visitors error mean ${pct(meanAbs(pooled))} (alone ${pct(meanAbs(alone))}) max ${pct(Math.max(...pooled.days.map((d) => Math.abs(d.error))))}, ` +
            `interval covers ${pooled.covered}/${pooled.days.length} (alone ${alone.covered}), occupancy MAE ${pct(pooled.occupancyMae)} (alone ${pct(alone.occupancyMae)}); ` +
            `calibration ${fit.calibrations[0]!.burstsPerMinute.toFixed(2)}/min (counted ${fit.calibrations[0]!.countedBurstsPerMinute.toFixed(2)})\n  ` +
            pooled.days.map((d, i) => `${d.label} ${pct(d.error)} (alone ${pct(alone.days[i]!.error)})`).join("; "),
        );
      }
      expect(pooled.days.length).toBe(6);
      expect(pooled.days.every((d) => d.start >= countedEnd)).toBe(true);
      if (gains) expect(meanAbs(pooled)).toBeLessThan(meanAbs(alone));
      expect(meanAbs(pooled)).toBeLessThanOrEqual(meanError);
      expect(Math.max(...pooled.days.map((d) => Math.abs(d.error)))).toBeLessThanOrEqual(maxError);
      expect(pooled.occupancyMae).toBeLessThanOrEqual(occupancyMae);
      expect(pooled.covered).toBeGreaterThanOrEqual(pooled.days.length - 1);
    }, 180_000);
  }
});
