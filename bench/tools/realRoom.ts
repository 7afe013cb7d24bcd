/**
 * Scores footfall's people inside on real captures with counted people: the Brno lab sc6-61
 * (MIT, tomas-fryza/probe-request-project; see test/data/brno-sc6-61/README.md), every day in
 * `../shared/data/brno-sc6-61` (or the folder given as the first argument).
 *
 * Protocol (issue 34):
 * - **as installed**: every day analysed alone with the prior from real phones;
 * - **calibrated**: each counted day analysed with a calibration fitted on up to the three
 *   previous counted days (never on the day itself), as a site that recalibrates would, and as
 *   `footfall calibrate` fits it: at every candidate threshold, keeping the one that fits best.
 * Scored per 15-minute interval that the counts cover (≥ 90 %): MAE over the occupied intervals
 * (people > 0), how often the 90 % interval holds the count, Σ estimate ÷ Σ truth, and the
 * per-day Pearson r (median over days), beside two plain baselines scaled the same way from the
 * previous three counted days: distinct randomized MACs heard at ≥ −70 dBm, and footfall's own
 * `inside` as installed.
 *
 *   npx tsx bench/tools/realRoom.ts [DATA_DIR] [--json]
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { analyze } from "../../src/analysis/analyze.ts";
import { CALIBRATION_THRESHOLDS, calibrationFromCandidates } from "../../src/analysis/calibrate.ts";
import { realPhonesPrior } from "../../src/kernels/calibration/burstYardstick.ts";
import type { CalibrationFile } from "../../src/kernels/calibration/Calibration.ts";
import type { OccupancyInterval, PeopleEstimate } from "../../src/kernels/people/PeopleEstimate.ts";
import type { CountedTruth } from "../../src/truth/CountedTruth.ts";
import { parseTruth } from "../../src/truth/parseTruth.ts";
import { truthInside } from "../../src/truth/truthInside.ts";

const TIME_ZONE = "Europe/Prague";
const INTERVAL_MS = 900_000;
const PREVIOUS_DAYS = 3;

/** One scored interval. */
export interface ScoredInterval {
  readonly day: string;
  readonly start: number;
  readonly truth: number;
  readonly inside: number;
  readonly low: number;
  readonly high: number;
  /** Distinct randomized MACs heard at ≥ −70 dBm in the interval (the plain analyst's count). */
  readonly macs70: number;
}

/** Figures of one estimator over a set of intervals. */
export interface RoomScore {
  readonly intervals: number;
  readonly occupied: number;
  readonly mae: number;
  readonly coverage: number;
  readonly ratio: number;
  readonly dayR: number;
  readonly nullBounds: number;
}

interface Day {
  readonly day: string;
  readonly records: unknown[];
  readonly truth: CountedTruth;
}

/** The days of a Brno-format folder (index.json, DAY.signals.ndjson.gz, DAY.truth.csv), in date order. */
export function loadDays(dir: string): Day[] {
  const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8")) as { days: { day: string }[] };
  return index.days
    .map(({ day }) => day)
    .filter((day) => existsSync(join(dir, `${day}.signals.ndjson.gz`)))
    .sort()
    .map((day) => {
      const text = gunzipSync(readFileSync(join(dir, `${day}.signals.ndjson.gz`))).toString("utf8");
      const records = text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as unknown);
      const truth = parseTruth(readFileSync(join(dir, `${day}.truth.csv`), "utf8"), `${day}.truth.csv`);
      return { day, records, truth };
    });
}

function macs70(records: readonly unknown[]): Map<number, number> {
  const sets = new Map<number, Set<string>>();
  for (const r of records as { device_id: string; rssi: number; ts: number; local: boolean }[]) {
    if (!r.local || r.rssi < -70) continue;
    const i = Math.floor(r.ts / INTERVAL_MS) * INTERVAL_MS;
    const set = sets.get(i) ?? new Set<string>();
    set.add(r.device_id);
    sets.set(i, set);
  }
  return new Map([...sets].map(([k, v]) => [k, v.size]));
}

function scored(day: Day, occupancy: readonly OccupancyInterval[], macs: ReadonlyMap<number, number>): ScoredInterval[] {
  const out: ScoredInterval[] = [];
  for (const o of occupancy) {
    const t = truthInside(day.truth.segments, o.shopId, o.start, o.end);
    if (!(t.coveredMs >= 0.9 * (o.end - o.start))) continue;
    out.push({ day: day.day, start: o.start, truth: t.people, inside: o.inside, low: o.insideLow, high: o.insideHigh, macs70: macs.get(o.start) ?? 0 });
  }
  return out;
}

function pearson(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : Number.NaN;
}

/** Scores `estimate` (persons, with optional bounds) over `intervals`. */
export function score(intervals: readonly ScoredInterval[], estimate: (s: ScoredInterval) => { x: number; low?: number; high?: number }): RoomScore {
  let ae = 0;
  let occupied = 0;
  let held = 0;
  let sumX = 0;
  let sumT = 0;
  let nullBounds = 0;
  const byDay = new Map<string, { x: number[]; t: number[] }>();
  for (const s of intervals) {
    const e = estimate(s);
    const d = byDay.get(s.day) ?? { x: [], t: [] };
    d.x.push(e.x);
    d.t.push(s.truth);
    byDay.set(s.day, d);
    if (!(s.truth > 0)) continue;
    occupied++;
    ae += Math.abs(e.x - s.truth);
    sumX += e.x;
    sumT += s.truth;
    if (e.low !== undefined && e.high !== undefined) {
      if (!Number.isFinite(e.low) || !Number.isFinite(e.high)) nullBounds++;
      if (e.low <= s.truth && s.truth <= e.high) held++;
    }
  }
  const rs = [...byDay.values()].filter((d) => d.t.some((t) => t > 0)).map((d) => pearson(d.x, d.t)).filter(Number.isFinite).sort((a, b) => a - b);
  return { intervals: intervals.length, occupied, mae: ae / occupied, coverage: held / occupied, ratio: sumX / sumT, dayR: rs.length > 0 ? rs[rs.length >> 1]! : Number.NaN, nullBounds };
}

/** Runs the protocol on the days of `dir`. */
export async function scoreRealRoom(dir: string): Promise<{ oracleScale: RoomScore; oracleDayScale: RoomScore; installed: RoomScore; calibrated: RoomScore; baselineMacs: RoomScore; baselineInside: RoomScore; installedOnCalibratedDays: RoomScore; days: number; countedDays: number }> {
  const days = loadDays(dir);
  const installed: ScoredInterval[] = [];
  const estimates = new Map<string, PeopleEstimate[]>();
  const perDay = new Map<string, ScoredInterval[]>();
  for (const day of days) {
    const { people } = await analyze(day.records, { timeZone: TIME_ZONE, proximity: false, quality: false, hourly: false });
    estimates.set(day.day, [...people]);
    const s = scored(day, people.flatMap((p) => p.occupancy), macs70(day.records));
    perDay.set(day.day, s);
    installed.push(...s);
  }
  const counted = days.filter((d) => perDay.get(d.day)!.some((s) => s.truth > 0));
  // The counted days at every candidate threshold, once: what each calibration chooses from.
  const atThreshold = new Map<string, PeopleEstimate[]>();
  for (const day of counted) {
    for (const visitorRssi of CALIBRATION_THRESHOLDS) {
      const { people } = await analyze(day.records, { timeZone: TIME_ZONE, proximity: false, quality: false, hourly: false, classify: { visitorRssi } });
      atThreshold.set(`${day.day} ${visitorRssi}`, [...people]);
    }
  }
  const calibrated: ScoredInterval[] = [];
  const baseMacs = new Map<ScoredInterval, number>();
  const baseInside = new Map<ScoredInterval, number>();
  const installedOnCalibrated: ScoredInterval[] = [];
  for (let j = 1; j < counted.length; j++) {
    const day = counted[j]!;
    const previous = counted.slice(Math.max(0, j - PREVIOUS_DAYS), j);
    const truth: CountedTruth = { segments: previous.flatMap((d) => d.truth.segments), daily: [], unknownRows: 0 };
    const fit = calibrationFromCandidates(
      CALIBRATION_THRESHOLDS.map((visitorRssi) => ({ visitorRssi, estimates: previous.flatMap((d) => atThreshold.get(`${d.day} ${visitorRssi}`)!) })),
      truth,
      { prior: realPhonesPrior, settings: { intervalMs: INTERVAL_MS, timeZone: TIME_ZONE }, minCoverage: 0.5 },
    );
    const file: CalibrationFile = fit.file;
    const { people } = await analyze(day.records, { timeZone: TIME_ZONE, proximity: false, quality: false, hourly: false, calibration: file });
    calibrated.push(...scored(day, people.flatMap((p) => p.occupancy), macs70(day.records)));
    // The plain baselines: people ÷ feature on the previous days' counted intervals.
    const train = previous.flatMap((d) => perDay.get(d.day)!);
    const t = train.reduce((a, s) => a + s.truth, 0);
    const kMacs = t / Math.max(1e-9, train.reduce((a, s) => a + s.macs70, 0));
    const kInside = t / Math.max(1e-9, train.reduce((a, s) => a + s.inside, 0));
    for (const s of perDay.get(day.day)!) {
      baseMacs.set(s, kMacs * s.macs70);
      baseInside.set(s, kInside * s.inside);
      installedOnCalibrated.push(s);
    }
  }
  // Floors of any one-number calibration of footfall's inside: the best single scale over every
  // day, and the best scale of each day on its own — both fitted on the scored days themselves
  // (oracles, not estimates: no calibration on other days can do better than the second).
  const bestScale = (xs: readonly ScoredInterval[]): number => {
    let best = 1;
    let bestMae = Number.POSITIVE_INFINITY;
    for (let k = 0.2; k <= 3; k += 0.005) {
      const s = score(xs, (x) => ({ x: k * x.inside }));
      if (s.mae < bestMae) [best, bestMae] = [k, s.mae];
    }
    return best;
  };
  const global = bestScale(installedOnCalibrated);
  const perDayScale = new Map<string, number>();
  for (const d of counted) perDayScale.set(d.day, bestScale(perDay.get(d.day)!));
  return {
    oracleScale: score(installedOnCalibrated, (s) => ({ x: global * s.inside })),
    oracleDayScale: score(installedOnCalibrated, (s) => ({ x: perDayScale.get(s.day)! * s.inside })),
    installed: score(installed, (s) => ({ x: s.inside, low: s.low, high: s.high })),
    calibrated: score(calibrated, (s) => ({ x: s.inside, low: s.low, high: s.high })),
    baselineMacs: score(installedOnCalibrated, (s) => ({ x: baseMacs.get(s)! })),
    baselineInside: score(installedOnCalibrated, (s) => ({ x: baseInside.get(s)! })),
    installedOnCalibratedDays: score(installedOnCalibrated, (s) => ({ x: s.inside, low: s.low, high: s.high })),
    days: days.length,
    countedDays: counted.length,
  };
}

const here = fileURLToPath(import.meta.url);
if (process.argv[1] !== undefined && here === process.argv[1]) {
  const dir = process.argv.slice(2).find((a) => !a.startsWith("--")) ?? fileURLToPath(new URL("../../../shared/data/brno-sc6-61", import.meta.url));
  if (!existsSync(join(dir, "index.json"))) {
    console.log(`no real captures at ${dir}: nothing to score`);
    process.exit(0);
  }
  const r = await scoreRealRoom(dir);
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(r));
  } else {
    const f = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : "—");
    const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)} %` : "—");
    console.log(`${r.days} days, ${r.countedDays} with people counted; occupied 15-min intervals scored\n`);
    console.log("| estimate | intervals | MAE (persons) | 90 % interval holds | estimate ÷ truth | per-day r (median) |");
    console.log("|---|---|---|---|---|---|");
    const row = (name: string, s: RoomScore, bounds: boolean) => console.log(`| ${name} | ${s.occupied} | ${f(s.mae)} | ${bounds ? pct(s.coverage) : "—"} | ${f(s.ratio)} | ${f(s.dayR)} |`);
    row("footfall as installed, every day", r.installed, true);
    row("footfall as installed, the calibrated days", r.installedOnCalibratedDays, true);
    row("footfall calibrated on the ≤ 3 previous counted days", r.calibrated, true);
    row("baseline: randomized MACs ≥ −70 dBm × people/MACs of the 3 previous days", r.baselineMacs, false);
    row("baseline: footfall's inside as installed × people/inside of the 3 previous days", r.baselineInside, false);
    row("oracle: footfall's inside × the best single scale for all these days", r.oracleScale, false);
    row("oracle: footfall's inside × each day's own best scale", r.oracleDayScale, false);
    if (r.installed.nullBounds + r.calibrated.nullBounds > 0) console.log(`\nbounds not finite: ${r.installed.nullBounds} as installed, ${r.calibrated.nullBounds} calibrated`);
  }
}
