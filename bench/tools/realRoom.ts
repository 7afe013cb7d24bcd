/**
 * Scores footfall's people inside on real captures with counted people: the Brno lab sc6-61
 * (MIT, tomas-fryza/probe-request-project; see test/data/brno-sc6-61/README.md), every day in
 * `../shared/data/brno-sc6-61` (or the folder given as the first argument), **through the
 * commands a user runs**: `footfall analyze --input DAY --tz Europe/Prague --format ndjson` as
 * installed, and `footfall calibrate` on the K counted days before a day, then `footfall analyze
 * --calibration` on the day (the CLI's own code, run in this process).
 *
 * Beside footfall, what an analyst would fit by hand on the same K days, from the raw records:
 * people ÷ randomized MACs heard at ≥ −70 dBm (one ratio), a least-squares line on them, and a
 * line on them and on universal MACs heard at ≥ −70 dBm (two features).
 *
 * Protocol: 15-minute intervals the counts cover ≥ 90 % (the truth is their time-weighted mean);
 * a counted day has at least one of them with people inside; each counted day is calibrated (and
 * the analyst's fits made) on the K counted days before it, never on itself; MAE over the
 * occupied intervals (people > 0), how often the 90 % interval holds the count, Σ estimate ÷ Σ
 * truth. Days before 2023-07-01 are the ones choices were made on; later days are reported
 * apart and were never tuned on.
 *
 *   npx tsx bench/tools/realRoom.ts [DATA_DIR] [--k 3,10,all] [--json]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { main } from "../../src/cli/main.ts";
import type { CountedTruth } from "../../src/truth/CountedTruth.ts";
import { parseTruth } from "../../src/truth/parseTruth.ts";
import { truthInside } from "../../src/analysis/truthInside.ts";
import { sampleCorrelation } from "simple-statistics";

const TIME_ZONE = "Europe/Prague";
/** The lab's SHOP ID in the files (invented by the data set's README). */
const SHOP_ID = 61;
const INTERVAL_MS = 900_000;
/** Days from this date on were never used for any choice: they are reported apart. */
export const LATE_FROM = "2023-07-01";

/** One scored interval of a day, with every estimate made of it. */
export interface ScoredInterval {
  readonly day: string;
  readonly start: number;
  /** People counted inside (time-weighted mean over the covered part). */
  readonly truth: number;
  /** Distinct randomized MACs heard at ≥ −70 dBm (the analyst's first feature). */
  readonly randomized70: number;
  /** Distinct universal MACs heard at ≥ −70 dBm (the analyst's second feature). */
  readonly universal70: number;
  /** footfall's estimate as installed. */
  readonly installed: Estimate;
}

/** An estimate of one interval, with its 90 % interval when it has one. */
export interface Estimate {
  readonly x: number;
  readonly low?: number;
  readonly high?: number;
}

/** Figures of one estimator over a set of intervals. */
export interface RoomScore {
  /** Occupied intervals scored. */
  readonly occupied: number;
  readonly mae: number;
  /** Share of occupied intervals whose 90 % interval held the count (NaN without bounds). */
  readonly coverage: number;
  /** Σ estimate ÷ Σ truth. */
  readonly ratio: number;
  /** Intervals whose bounds were not finite. */
  readonly nullBounds: number;
  /** Pearson's r of the estimate and the count over the occupied intervals. */
  readonly r: number;
}

/** One estimator's scores on the early days, the late days and all of them. */
export interface SplitScore {
  readonly early: RoomScore;
  readonly late: RoomScore;
  readonly all: RoomScore;
}

/** The protocol's figures for one K (counted days before each day). */
export interface KScore {
  readonly k: number;
  /** Counted days scored (each has at least one counted day before it). */
  readonly days: number;
  readonly installed: SplitScore;
  readonly calibrated: SplitScore;
  readonly ratio: SplitScore;
  readonly line: SplitScore;
  readonly twoFeatures: SplitScore;
  /** Per scored day: footfall calibrated and the best analyst fit, MAE. */
  readonly perDay: readonly { readonly day: string; readonly calibrated: number; readonly line: number; readonly twoFeatures: number; readonly installed: number }[];
}

interface Day {
  readonly day: string;
  readonly signals: string;
  readonly truthFile: string;
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
      const truthFile = join(dir, `${day}.truth.csv`);
      return { day, signals: join(dir, `${day}.signals.ndjson.gz`), truthFile, truth: parseTruth(readFileSync(truthFile, "utf8"), truthFile) };
    });
}

/** Runs `footfall ARGV` in this process (the CLI's own code); stdout as text. */
export async function footfall(argv: readonly string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  const status = await main(argv, { stdout, stderr, env: {}, signal: new AbortController().signal });
  return { status, stdout: out, stderr: err };
}

interface OccupancyLine {
  readonly type: string;
  readonly start: number;
  readonly inside: number;
  readonly insideLow: number | null;
  readonly insideHigh: number | null;
}

/** `footfall analyze --input FILE --format ndjson [...more]`'s occupancy lines, by interval start. */
async function occupancy(file: string, more: readonly string[] = []): Promise<Map<number, Estimate>> {
  const r = await footfall(["analyze", "--input", file, "--tz", TIME_ZONE, "--format", "ndjson", ...more]);
  if (r.status !== 0) throw new Error(`footfall analyze ${file}: exit ${r.status}: ${r.stderr}`);
  const out = new Map<number, Estimate>();
  for (const line of r.stdout.split("\n")) {
    if (!line.startsWith('{"type":"occupancy"')) continue;
    const o = JSON.parse(line) as OccupancyLine;
    out.set(o.start, { x: o.inside, low: o.insideLow ?? Number.NEGATIVE_INFINITY, high: o.insideHigh ?? Number.POSITIVE_INFINITY });
  }
  return out;
}

// Distinct randomized and universal MACs heard at ≥ −70 dBm per interval, from the raw records.
function analystFeatures(file: string): Map<number, { randomized70: number; universal70: number }> {
  const sets = new Map<number, { r: Set<string>; u: Set<string> }>();
  for (const line of gunzipSync(readFileSync(file)).toString("utf8").split("\n")) {
    if (line === "") continue;
    const rec = JSON.parse(line) as { device_id: string; rssi: number; ts: number; local: boolean };
    if (rec.rssi < -70) continue;
    const i = Math.floor(rec.ts / INTERVAL_MS) * INTERVAL_MS;
    let s = sets.get(i);
    if (s === undefined) sets.set(i, (s = { r: new Set(), u: new Set() }));
    (rec.local ? s.r : s.u).add(rec.device_id);
  }
  return new Map([...sets].map(([k, v]) => [k, { randomized70: v.r.size, universal70: v.u.size }]));
}

// The day's intervals the counts cover ≥ 90 %, with the installed estimate and the analyst's features.
async function scoredIntervals(day: Day): Promise<ScoredInterval[]> {
  const installed = await occupancy(day.signals);
  const features = analystFeatures(day.signals);
  const out: ScoredInterval[] = [];
  for (const [start, estimate] of installed) {
    const t = truthInside(day.truth.segments, SHOP_ID, start, start + INTERVAL_MS);
    if (!(t.coveredMs >= 0.9 * INTERVAL_MS)) continue;
    const f = features.get(start) ?? { randomized70: 0, universal70: 0 };
    out.push({ day: day.day, start, truth: t.people, ...f, installed: estimate });
  }
  return out;
}

/** Least squares y ≈ X·b (X with its intercept column), by the normal equations; zeros when singular. */
function leastSquares(x: readonly (readonly number[])[], y: readonly number[]): number[] {
  const p = x[0]?.length ?? 0;
  const a = Array.from({ length: p }, () => new Array<number>(p + 1).fill(0));
  for (let i = 0; i < x.length; i++) {
    for (let r = 0; r < p; r++) {
      for (let c = 0; c < p; c++) a[r]![c]! += x[i]![r]! * x[i]![c]!;
      a[r]![p]! += x[i]![r]! * y[i]!;
    }
  }
  // Gauss–Jordan with partial pivoting: the analyst's notebook solve, two or three unknowns.
  for (let c = 0; c < p; c++) {
    let pivot = c;
    for (let r = c + 1; r < p; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[pivot]![c]!)) pivot = r;
    if (Math.abs(a[pivot]![c]!) < 1e-12) return new Array<number>(p).fill(0);
    [a[c], a[pivot]] = [a[pivot]!, a[c]!];
    for (let r = 0; r < p; r++) {
      if (r === c) continue;
      const f = a[r]![c]! / a[c]![c]!;
      for (let k = c; k <= p; k++) a[r]![k]! -= f * a[c]![k]!;
    }
  }
  return a.map((row, i) => row[p]! / row[i]!);
}

/** Scores `estimate` over the occupied intervals of `intervals`. */
export function score(intervals: readonly ScoredInterval[], estimate: (s: ScoredInterval) => Estimate): RoomScore {
  let ae = 0;
  let occupied = 0;
  let held = 0;
  let withBounds = 0;
  let sumX = 0;
  let sumT = 0;
  let nullBounds = 0;
  const xs: number[] = [];
  const ts: number[] = [];
  for (const s of intervals) {
    if (!(s.truth > 0)) continue;
    const e = estimate(s);
    xs.push(e.x);
    ts.push(s.truth);
    occupied++;
    ae += Math.abs(e.x - s.truth);
    sumX += e.x;
    sumT += s.truth;
    if (e.low !== undefined && e.high !== undefined) {
      withBounds++;
      if (!Number.isFinite(e.low) || !Number.isFinite(e.high)) nullBounds++;
      if (e.low <= s.truth && s.truth <= e.high) held++;
    }
  }
  return { occupied, mae: ae / occupied, coverage: withBounds > 0 ? held / withBounds : Number.NaN, ratio: sumX / sumT, nullBounds, r: (xs.length > 1 ? sampleCorrelation(xs, ts) : Number.NaN) };
}

function split(intervals: readonly ScoredInterval[], estimate: (s: ScoredInterval) => Estimate): SplitScore {
  return {
    early: score(intervals.filter((s) => s.day < LATE_FROM), estimate),
    late: score(intervals.filter((s) => s.day >= LATE_FROM), estimate),
    all: score(intervals, estimate),
  };
}

/**
 * Runs the protocol on the days of `dir` for each K: every counted day with a counted day before
 * it is scored, calibrated on (at most) the K counted days before it.
 */
export async function scoreRealRoom(dir: string, ks: readonly number[] = [3, 10]): Promise<{ days: number; countedDays: number; installedEveryDay: SplitScore; macsEveryDay: SplitScore; byK: KScore[] }> {
  const days = loadDays(dir);
  const perDay = new Map<string, ScoredInterval[]>();
  for (const day of days) perDay.set(day.day, await scoredIntervals(day));
  const counted = days.filter((d) => perDay.get(d.day)!.some((s) => s.truth > 0));
  const scratch = mkdtempSync(join(tmpdir(), "footfall-real-room-"));
  try {
    const byK: KScore[] = [];
    for (const k of ks) {
      const scored: ScoredInterval[] = [];
      const calibrated = new Map<ScoredInterval, Estimate>();
      const ratio = new Map<ScoredInterval, number>();
      const line = new Map<ScoredInterval, number>();
      const two = new Map<ScoredInterval, number>();
      const dayFigures: KScore["perDay"][number][] = [];
      for (let j = 1; j < counted.length; j++) {
        const day = counted[j]!;
        const previous = counted.slice(Math.max(0, j - k), j);
        // footfall, as a user runs it: calibrate on the previous days, analyse the day with it.
        const calibration = join(scratch, `k${k}-${day.day}.calibration.json`);
        const fitted = await footfall(["calibrate", ...previous.flatMap((d) => ["--input", d.signals, "--truth", d.truthFile]), "--tz", TIME_ZONE, "--out", calibration]);
        if (fitted.status === 2) throw new Error(`footfall calibrate for ${day.day}: ${fitted.stderr}`);
        const estimates = await occupancy(day.signals, ["--calibration", calibration]);
        // The analyst's fits on the previous days' counted intervals with people inside (fitted on
        // the empty ones too, every fit does worse on the occupied ones it is scored on).
        const train = previous.flatMap((d) => perDay.get(d.day)!).filter((s) => s.truth > 0);
        const t = train.reduce((a, s) => a + s.truth, 0);
        const perMac = t / Math.max(1e-9, train.reduce((a, s) => a + s.randomized70, 0));
        const b1 = leastSquares(train.map((s) => [1, s.randomized70]), train.map((s) => s.truth));
        const b2 = leastSquares(train.map((s) => [1, s.randomized70, s.universal70]), train.map((s) => s.truth));
        const today = perDay.get(day.day)!;
        for (const s of today) {
          scored.push(s);
          calibrated.set(s, estimates.get(s.start) ?? { x: Number.NaN });
          ratio.set(s, perMac * s.randomized70);
          line.set(s, b1[0]! + b1[1]! * s.randomized70);
          two.set(s, b2[0]! + b2[1]! * s.randomized70 + b2[2]! * s.universal70);
        }
        dayFigures.push({
          day: day.day,
          calibrated: score(today, (s) => calibrated.get(s)!).mae,
          line: score(today, (s) => ({ x: line.get(s)! })).mae,
          twoFeatures: score(today, (s) => ({ x: two.get(s)! })).mae,
          installed: score(today, (s) => s.installed).mae,
        });
      }
      byK.push({
        k,
        days: counted.length - 1,
        installed: split(scored, (s) => s.installed),
        calibrated: split(scored, (s) => calibrated.get(s)!),
        ratio: split(scored, (s) => ({ x: ratio.get(s)! })),
        line: split(scored, (s) => ({ x: line.get(s)! })),
        twoFeatures: split(scored, (s) => ({ x: two.get(s)! })),
        perDay: dayFigures,
      });
    }
    const every = [...perDay.values()].flat();
    return { days: days.length, countedDays: counted.length, installedEveryDay: split(every, (s) => s.installed), macsEveryDay: split(every, (s) => ({ x: s.randomized70 })), byK };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const here = fileURLToPath(import.meta.url);
if (process.argv[1] !== undefined && here === process.argv[1]) {
  const args = process.argv.slice(2);
  const kAt = args.indexOf("--k");
  const ks = kAt >= 0 ? args[kAt + 1]!.split(",").map((k) => (k === "all" ? Number.POSITIVE_INFINITY : Number(k))) : [3, 10, Number.POSITIVE_INFINITY];
  const dir = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--k") ?? fileURLToPath(new URL("../../../shared/data/brno-sc6-61", import.meta.url));
  if (!existsSync(join(dir, "index.json"))) {
    console.log(`no real captures at ${dir}: nothing to score`);
    process.exit(0);
  }
  const r = await scoreRealRoom(dir, ks);
  if (args.includes("--json")) {
    console.log(JSON.stringify(r));
  } else {
    const f = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "—");
    const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)} %` : "—");
    const cell = (s: RoomScore) => `${f(s.mae)}${Number.isFinite(s.coverage) ? ` (${pct(s.coverage)})` : ""}`;
    console.log(`${r.days} days, ${r.countedDays} with people counted; MAE in persons over the occupied 15-min intervals (90 % interval holds)\n`);
    console.log(`footfall as installed, every counted day: early ${cell(r.installedEveryDay.early)}, late ${cell(r.installedEveryDay.late)}, all ${cell(r.installedEveryDay.all)} (${r.installedEveryDay.all.occupied} intervals)`);
    console.log(`r with the count over those intervals: footfall as installed ${f(r.installedEveryDay.all.r)}, randomized MACs ≥ −70 dBm ${f(r.macsEveryDay.all.r)}\n`);
    for (const s of r.byK) {
      console.log(`${Number.isFinite(s.k) ? `K = ${s.k} counted days` : "every counted day"} before each day (${s.days} days scored; early < ${LATE_FROM} ≤ late)\n`);
      console.log(`| estimate | early days | late days | all | estimate ÷ truth (all) |`);
      console.log(`|---|---|---|---|---|`);
      const row = (name: string, x: SplitScore) => console.log(`| ${name} | ${cell(x.early)} | ${cell(x.late)} | ${cell(x.all)} | ${f(x.all.ratio)} |`);
      row("footfall as installed", s.installed);
      row("footfall calibrate → analyze --calibration", s.calibrated);
      row("analyst: people ÷ randomized MACs ≥ −70 dBm", s.ratio);
      row("analyst: line on randomized MACs ≥ −70 dBm", s.line);
      row("analyst: line on randomized and universal MACs ≥ −70 dBm", s.twoFeatures);
      console.log(`\nintervals scored: early ${s.installed.early.occupied}, late ${s.installed.late.occupied}\n`);
    }
  }
}
