import { DEFAULT_TIME_ZONE } from "../../time/timeZone.ts";
import { median } from "simple-statistics";
import { estimatedDwell } from "../sessions/estimatedDwell.ts";
import { joinedSquaredGaps } from "../sessions/joinedSquaredGaps.ts";
import { LocalCalendar } from "../../time/LocalCalendar.ts";
import type { ClassifiedSession, VisitKind } from "./VisitClassifier.ts";

/**
 * One true presence of a device at a shop (the simulator's `TruthVisit` has this shape).
 *
 * @example
 * const t: TruthPresence = { shop: 101, device: "f0:76:6f:12:34:56", start: 0, end: 600_000, kind: "visitor" };
 */
export interface TruthPresence {
  readonly shop: number;
  readonly device: string;
  readonly start: number;
  readonly end: number;
  readonly kind: VisitKind;
}

/**
 * Options of {@link scoreAgainstTruth}.
 *
 * @example
 * const options: ScoreAgainstTruthOptions = { timeZone: "Asia/Seoul" };
 */
export interface ScoreAgainstTruthOptions {
  /** Time zone of the shops' local days (true visitors are counted on the day they arrived). @default "Asia/Seoul" */
  readonly timeZone?: string;
  /**
   * Which detected dwell is compared with the true one: `"estimated"` (`estimatedDwellMs`, what the
   * dwell statistics report) or `"observed"` (`dwellMs`, last − first signal).
   * @default "estimated"
   */
  readonly dwell?: "estimated" | "observed";
}

/**
 * Defaults of {@link ScoreAgainstTruthOptions}.
 *
 * @example
 * defaultScoreAgainstTruth.timeZone; // "Asia/Seoul"
 */
export const defaultScoreAgainstTruth = Object.freeze({ timeZone: DEFAULT_TIME_ZONE, dwell: "estimated" as const });

/** Precision, recall and F1 of one class, with the counts behind them. */
export interface ClassScore {
  /** True presences of the class predicted as the class. */
  readonly truePositives: number;
  /** Presences of other kinds predicted as the class. */
  readonly falsePositives: number;
  /** Presences of the class predicted as something else (or never seen). */
  readonly falseNegatives: number;
  /** tp ÷ (tp + fp); 1 when nothing was predicted. */
  readonly precision: number;
  /** tp ÷ (tp + fn); 1 when the class never occurred. */
  readonly recall: number;
  /** Harmonic mean of precision and recall. */
  readonly f1: number;
}

/** Visitor counts of one shop and local day. */
export interface ShopDayCountScore {
  readonly shopId: number;
  /** Local date, `YYYY-MM-DD`. */
  readonly date: string;
  /** Unique true visitor devices arriving that day. */
  readonly truthVisitors: number;
  /** Unique devices with a session classified `visitor` starting that day. */
  readonly detectedVisitors: number;
  /** (detected − truth) ÷ truth; 0 when both are 0. */
  readonly relativeError: number;
}

/**
 * Accuracy of classified sessions against ground truth (see {@link scoreAgainstTruth}).
 *
 * @example
 * score.visitor.f1; // e.g. 0.98
 */
export interface AccuracyScore {
  /** Per shop and local day, visitor counts and their relative error. */
  readonly shopDays: readonly ShopDayCountScore[];
  /** Mean of |relative error| over shop-days. */
  readonly meanAbsCountError: number;
  /** Largest |relative error| over shop-days. */
  readonly maxAbsCountError: number;
  /** |Σ detected − Σ truth| ÷ Σ truth over all shop-days. */
  readonly totalCountError: number;
  /** True visitors recognised as visitors, whose dwell was compared. */
  readonly dwellMatched: number;
  /** Median |detected dwell − true dwell| of those visitors, ms. */
  readonly medianAbsDwellErrorMs: number;
  /** Median (detected − true) dwell, ms: the bias (negative = underestimated). */
  readonly medianDwellErrorMs: number;
  /** Visitor vs everything else. */
  readonly visitor: ClassScore;
  /** Passer-by vs everything else. */
  readonly passerby: ClassScore;
  /** Counts of true kind → predicted kind (`missed`: no session at all). */
  readonly confusion: Readonly<Record<VisitKind, Readonly<Record<VisitKind | "missed", number>>>>;
}

const KINDS: readonly VisitKind[] = ["visitor", "passerby", "staff", "stationary"];

/**
 * Scores detected, classified sessions against the true presences they came from (e.g. the
 * simulator's `world.truth(shopId)`), the way the analytics are judged:
 *
 * - Each session is matched to the true presence of the same shop and device it overlaps most
 *   (or lies nearest to). A presence is predicted `visitor` if any of its sessions is a visitor,
 *   otherwise it takes the kind of its longest session; a presence with no session is `missed`.
 * - **Counts**: per shop and local day, unique visitor devices detected vs true.
 * - **Dwell**: for true visitors predicted as visitors, |detected − (true end − true start)|, median;
 *   detected = last end − first start of their visitor sessions, plus (by default) the mean gap its
 *   edges fall into as in `estimatedDwellMs` (`estimatedDwell`, the silences between the sessions
 *   being gaps too).
 * - **Classes**: precision, recall and F1 of `visitor` and of `passerby` over presences.
 *
 * @example
 * const score = scoreAgainstTruth(classified, world.truth(), { timeZone: "Asia/Seoul" });
 * score.visitor.f1 >= 0.9 && score.medianAbsDwellErrorMs <= 60_000; // the goals
 */
export function scoreAgainstTruth(
  sessions: readonly ClassifiedSession[],
  truth: readonly TruthPresence[],
  options: ScoreAgainstTruthOptions = {},
): AccuracyScore {
  const calendar = new LocalCalendar(options.timeZone ?? defaultScoreAgainstTruth.timeZone);
  const dwellBasis = options.dwell ?? defaultScoreAgainstTruth.dwell;
  if (dwellBasis !== "estimated" && dwellBasis !== "observed") throw new RangeError(`dwell must be "estimated" or "observed", got ${String(dwellBasis)}`);
  const byDevice = new Map<string, number[]>();
  for (let i = 0; i < truth.length; i++) {
    const t = truth[i]!;
    const key = `${t.shop} ${t.device}`;
    let list = byDevice.get(key);
    if (list === undefined) byDevice.set(key, (list = []));
    list.push(i);
  }
  const matched: ClassifiedSession[][] = truth.map(() => []);
  for (const s of sessions) {
    const candidates = byDevice.get(`${s.shopId} ${s.device}`);
    if (candidates === undefined) continue;
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const i of candidates) {
      const t = truth[i]!;
      // Overlap when positive; minus the distance between the intervals otherwise.
      const score = Math.min(t.end, s.end) - Math.max(t.start, s.start);
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    matched[best]!.push(s);
  }

  const confusion = Object.fromEntries(
    KINDS.map((k) => [k, { visitor: 0, passerby: 0, staff: 0, stationary: 0, missed: 0 }]),
  ) as Record<VisitKind, Record<VisitKind | "missed", number>>;
  const dwellErrors: number[] = [];
  for (let i = 0; i < truth.length; i++) {
    const t = truth[i]!;
    const list = matched[i]!;
    let predicted: VisitKind | "missed" = "missed";
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    let longest = -1;
    for (const s of list) {
      if (s.kind === "visitor") {
        predicted = "visitor";
        if (s.start < first) first = s.start;
        if (s.end > last) last = s.end;
      } else if (predicted !== "visitor" && s.dwellMs > longest) {
        longest = s.dwellMs;
        predicted = s.kind;
      }
    }
    confusion[t.kind][predicted]++;
    if (t.kind === "visitor" && predicted === "visitor") {
      const detected = dwellBasis === "estimated" ? estimatedDwell(last - first, squaredGaps(list)) : last - first;
      dwellErrors.push(detected - (t.end - t.start));
    }
  }

  const truthDays = new Map<string, { shopId: number; date: string; truth: Set<string>; detected: Set<string> }>();
  const dayOf = (shopId: number, date: string) => {
    const key = `${shopId} ${date}`;
    let d = truthDays.get(key);
    if (d === undefined) truthDays.set(key, (d = { shopId, date, truth: new Set(), detected: new Set() }));
    return d;
  };
  for (const t of truth) if (t.kind === "visitor") dayOf(t.shop, calendar.day(t.start).date).truth.add(t.device);
  for (const s of sessions) if (s.kind === "visitor") dayOf(s.shopId, s.date).detected.add(s.device);
  const shopDays: ShopDayCountScore[] = [...truthDays.values()]
    .sort((a, b) => a.shopId - b.shopId || (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    .map((d) => ({
      shopId: d.shopId,
      date: d.date,
      truthVisitors: d.truth.size,
      detectedVisitors: d.detected.size,
      relativeError: d.truth.size === 0 ? (d.detected.size === 0 ? 0 : 1) : (d.detected.size - d.truth.size) / d.truth.size,
    }));
  let sumTruth = 0;
  let sumDetected = 0;
  let sumAbs = 0;
  let maxAbs = 0;
  for (const d of shopDays) {
    sumTruth += d.truthVisitors;
    sumDetected += d.detectedVisitors;
    sumAbs += Math.abs(d.relativeError);
    if (Math.abs(d.relativeError) > maxAbs) maxAbs = Math.abs(d.relativeError);
  }
  return {
    shopDays,
    meanAbsCountError: shopDays.length === 0 ? 0 : sumAbs / shopDays.length,
    maxAbsCountError: maxAbs,
    totalCountError: sumTruth === 0 ? 0 : Math.abs(sumDetected - sumTruth) / sumTruth,
    dwellMatched: dwellErrors.length,
    medianAbsDwellErrorMs: dwellErrors.length === 0 ? Number.NaN : median(dwellErrors.map(Math.abs)),
    medianDwellErrorMs: dwellErrors.length === 0 ? Number.NaN : median(dwellErrors),
    visitor: classScore(confusion, "visitor"),
    passerby: classScore(confusion, "passerby"),
    confusion,
  };
}

function classScore(confusion: Record<VisitKind, Record<VisitKind | "missed", number>>, kind: VisitKind): ClassScore {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const truthKind of KINDS) {
    const row = confusion[truthKind];
    if (truthKind === kind) {
      tp = row[kind];
      for (const [predicted, n] of Object.entries(row)) if (predicted !== kind) fn += n;
    } else fp += row[kind];
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { truePositives: tp, falsePositives: fp, falseNegatives: fn, precision, recall, f1 };
}

// Σ of the squared gaps of a presence's visitor sessions joined in time order (`joinedSquaredGaps`).
function squaredGaps(sessions: readonly ClassifiedSession[]): number {
  const visits = sessions.filter((s) => s.kind === "visitor").sort((a, b) => a.start - b.start);
  let sum = 0;
  let end = visits[0]?.start ?? 0;
  for (const s of visits) {
    sum = joinedSquaredGaps(sum, end, s);
    end = Math.max(end, s.end);
  }
  return sum;
}
