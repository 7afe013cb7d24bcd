import type { DwellStats } from "../kernels/visits/dwellStats.ts";
import type { PeopleEstimate } from "../kernels/people/PeopleEstimate.ts";
import type { AccuracyScore } from "../kernels/visits/scoreAgainstTruth.ts";
import type { PeopleDayScore } from "../kernels/people/scorePeople.ts";
import type { ClassifiedSession } from "../kernels/visits/VisitClassifier.ts";
import type { VisitCounts } from "../kernels/visits/VisitCounter.ts";
import type { ZoneTimeRow } from "../report/proximityZonesChart.ts";
import type { TruthVisit } from "../sim/world/World.ts";

/**
 * The day's point-of-sale figures of one shop, as the demo uploaded them.
 *
 * @example
 * const s: DemoSales = { receipts: 250, receiptsByHour: new Array(24).fill(0), amount: 2_400_000, quantity: 410, currency: "KRW", status: "uploaded" };
 */
export interface DemoSales {
  /** Sale lines net of refund lines. */
  readonly receipts: number;
  /** Net receipts per local hour 0–23. */
  readonly receiptsByHour: readonly number[];
  /** The day's total, major units (what was posted, or would have been). */
  readonly amount: number;
  /** Items, as posted. */
  readonly quantity: number;
  readonly currency: string;
  /** `uploaded`, `unchanged`, `failed: …`, `rejected: …` or `not uploaded (…)`. */
  readonly status: string;
}

/**
 * Everything the demo learnt about one shop-day.
 *
 * @example
 * results[0].counts?.visitors;
 */
export interface DemoShopResult {
  readonly id: number;
  readonly name: string;
  readonly brand: string;
  readonly externalKey: string;
  readonly sensors: readonly string[];
  readonly timeZone: string;
  /** Local date of the day, `YYYY-MM-DD`. */
  readonly date: string;
  /** Signal records read and decoded. */
  readonly signals: number;
  /** Records rejected by the decoder. */
  readonly invalid: number;
  /** Why reading stopped early, if it failed. */
  readonly error?: string | undefined;
  /** `countVisits` of the day. */
  readonly counts: VisitCounts | undefined;
  /** `countVisits` per hour. */
  readonly hours: readonly VisitCounts[];
  /** Dwell statistics of the day's visitor sessions (`DwellMeter`, as `ShopDaySummary.dwell`). */
  readonly dwell: DwellStats | undefined;
  readonly sessions: readonly ClassifiedSession[];
  /** Visitors' device-time per sensor and zone. */
  readonly zones: readonly ZoneTimeRow[];
  readonly sales: DemoSales | undefined;
  /** The ground truth the figures are scored on (cut at the data's end if the day was interrupted). */
  readonly truth: readonly TruthVisit[];
  /** `scoreAgainstTruth` of this shop's sessions (MAC-level: sessions against the truth per MAC). */
  readonly score: AccuracyScore | undefined;
  /** People, not MACs: the day's people estimate (`estimatePeople`), cut at the data's end if interrupted. */
  readonly people: PeopleEstimate | undefined;
  /** `scorePeople` of that estimate against the people present (undefined without truth or estimate). */
  readonly peopleScore: PeopleDayScore | undefined;
}

/**
 * Facts about the run, for the summary's first line and the report's footer.
 *
 * @example
 * const run: DemoRun = { date: "2026-11-16", timeZone: "Asia/Seoul", seed: "1", speed: 900, elapsedMs: 61_000, currency: "KRW" };
 */
export interface DemoRun {
  readonly date: string;
  readonly timeZone: string;
  readonly seed: string;
  readonly speed: number;
  readonly elapsedMs: number;
  readonly currency: string;
  /** Set when the day was cut short, e.g. "interrupted at 14:05". */
  readonly partial?: string | undefined;
  /** `--min-count K` of the run: small counts shown as suppressed. @default 0 (off) */
  readonly minCount?: number;
  /** The world's MAC rotation (`--rotation`), for the report's facts. @default undefined (not shown) */
  readonly rotation?: string;
}
