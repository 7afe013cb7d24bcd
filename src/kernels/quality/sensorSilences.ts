import { DEFAULT_TIME_ZONE } from "../../time/timeZone.ts";
import { LocalCalendar } from "../../time/LocalCalendar.ts";
import { checkNumberOption } from "../../options/checkNumberOption.ts";
import type { DataQualityReport } from "./dataQuality.ts";
import { defaultVisitClassifier } from "../visits/VisitClassifier.ts";

const MS_PER_HOUR = 3_600_000;

/**
 * A sensor that heard nothing for a while when the shop was open: most likely down (power,
 * network), so people near it were heard weaker or not at all and that time's figures are low.
 *
 * @example
 * const s: SensorSilence = { shopId: 101, sensor: "b8:27:eb:00:00:01", from: 1794798000000, to: 1794805200000, openMs: 7_200_000, edge: "none" };
 */
export interface SensorSilence {
  readonly shopId: number;
  /** The sensor's MAC (`square_mac`). */
  readonly sensor: string;
  /** Last signal before the silence (or the start of the observed range), epoch ms. */
  readonly from: number;
  /** First signal after it (or the end of the observed range), epoch ms. */
  readonly to: number;
  /** How much of it fell in opening hours, ms. */
  readonly openMs: number;
  /** As `QualityGap.edge`: `"end"` is a sensor that went silent and stayed so. */
  readonly edge: "none" | "start" | "end";
}

/**
 * Options of {@link sensorSilences}.
 *
 * @example
 * const options: SensorSilencesOptions = { openingHours: [9, 21], timeZone: "Asia/Seoul", minOpenMs: 15 * 60_000 };
 */
export interface SensorSilencesOptions {
  /** Local opening hours `[open, close]`, hours. @default [10, 22] (the visit classifier's) */
  readonly openingHours?: readonly [number, number];
  /** IANA time zone of the shops. @default "Asia/Seoul" */
  readonly timeZone?: string;
  /**
   * Least opening-hours time, ms, a gap must cover to be reported. Gaps shorter than the
   * report's `gapThresholdMs` are not in the report at all.
   * @default 1_800_000 (30 min)
   */
  readonly minOpenMs?: number;
}

/**
 * The sensor gaps of a data-quality report that cover opening hours: a sensor silent at night
 * is a closed shop, one silent for half an hour while the shop is open — where staff, equipment
 * and shoppers keep every sensor busy — is a sensor that was down. The figures of that time are
 * low, and nothing in the signals can say by how much; this says when and where.
 *
 * @param report a data-quality report (`analyze().quality`, `dataQuality`, `assessQuality`)
 * @returns the silences, by shop, sensor and start
 *
 * @example
 * for (const s of sensorSilences(result.quality!, { timeZone: "Asia/Seoul" })) {
 *   console.warn(`sensor ${s.sensor} of shop ${s.shopId} was silent for ${(s.openMs / 3_600_000).toFixed(1)} h of opening hours`);
 * }
 */
export function sensorSilences(report: DataQualityReport, options: SensorSilencesOptions = {}): SensorSilence[] {
  if (typeof options !== "object" || options === null) throw new TypeError("sensorSilences options must be an object");
  const [open, close] = options.openingHours ?? defaultVisitClassifier.openingHours;
  checkNumberOption("openingHours[0]", open, { min: 0, max: 24, unit: "h" });
  checkNumberOption("openingHours[1]", close, { min: open, max: 24, unit: "h" });
  const minOpenMs = checkNumberOption("minOpenMs", options.minOpenMs ?? 30 * 60_000, { min: 0, unit: "ms" });
  const calendar = new LocalCalendar(options.timeZone ?? DEFAULT_TIME_ZONE);
  const out: SensorSilence[] = [];
  for (const sensor of report.sensors) {
    for (const gap of sensor.gaps) {
      let openMs = 0;
      // Each local day the gap touches, its opening hours' overlap (days differ in length across DST).
      for (let t = gap.from; t < gap.to; ) {
        const day = calendar.day(t);
        const a = Math.max(gap.from, day.start + open * MS_PER_HOUR);
        const b = Math.min(gap.to, day.start + close * MS_PER_HOUR);
        if (b > a) openMs += b - a;
        t = day.end;
      }
      if (openMs > 0 && openMs >= minOpenMs) out.push({ shopId: sensor.shopId, sensor: sensor.sensor, from: gap.from, to: gap.to, openMs, edge: gap.edge });
    }
  }
  return out.sort((x, y) => x.shopId - y.shopId || (x.sensor < y.sensor ? -1 : x.sensor > y.sensor ? 1 : 0) || x.from - y.from);
}
