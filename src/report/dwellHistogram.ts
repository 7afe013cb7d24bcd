import * as Plot from "@observablehq/plot";
import { chartTheme } from "./chartTheme.ts";
import { checkRows } from "./checkRows.ts";
import { renderPlot } from "./renderPlot.ts";

/**
 * The count of visits in one dwell bucket, e.g. `{ bucket: "5–20 min", count: 31 }`.
 *
 * @example
 * const b: DwellBucketCount = { bucket: "< 5 min", count: 12 };
 */
export interface DwellBucketCount {
  /** Bucket label, shown as given; bars keep the input order. */
  readonly bucket: string;
  /** Visits (sessions) whose dwell fell in the bucket. */
  readonly count: number;
}

/**
 * Options of {@link dwellHistogram}.
 *
 * @example
 * const options: DwellHistogramOptions = { title: "Dwell, shop 1" };
 */
export interface DwellHistogramOptions {
  /** @default "Dwell time of visits" */
  readonly title?: string;
  /** @default a line naming what is counted */
  readonly subtitle?: string;
  /** Line under the chart. @default none */
  readonly note?: string;
  /** What one count is, for the axis. @default "visits" */
  readonly unit?: string;
  /** Height of the plot with its axes, px (title comes on top). @default 280 */
  readonly height?: number;
}

/**
 * Defaults of {@link DwellHistogramOptions}.
 *
 * @example
 * defaultDwellHistogram.unit; // "visits"
 */
export const defaultDwellHistogram = Object.freeze({ title: "Dwell time of visits", unit: "visits", height: 280 });

/**
 * The dwell buckets used when {@link dwellHistogram} is given raw minutes: lower bounds in
 * minutes (inclusive) and labels, matching footfall's reporting buckets
 * (< 5 min, 5–20 min, 20–60 min, 1–6 h, ≥ 6 h).
 *
 * @example
 * DWELL_CHART_BUCKETS[1]; // { fromMin: 5, label: "5–20 min" }
 */
export const DWELL_CHART_BUCKETS: readonly { readonly fromMin: number; readonly label: string }[] = Object.freeze([
  { fromMin: 0, label: "< 5 min" },
  { fromMin: 5, label: "5–20 min" },
  { fromMin: 20, label: "20–60 min" },
  { fromMin: 60, label: "1–6 h" },
  { fromMin: 360, label: "≥ 6 h" },
]);

function bucketMinutes(minutes: readonly number[]): DwellBucketCount[] {
  const counts = DWELL_CHART_BUCKETS.map(() => 0);
  for (let i = 0; i < minutes.length; i++) {
    const m = minutes[i] as number;
    if (typeof m !== "number" || !Number.isFinite(m) || m < 0) {
      throw new RangeError(`dwellHistogram: dwell ${i} must be a finite number of minutes ≥ 0, got ${String(m)}`);
    }
    let k = DWELL_CHART_BUCKETS.length - 1;
    while (k > 0 && m < (DWELL_CHART_BUCKETS[k] as { fromMin: number }).fromMin) k--;
    counts[k] = (counts[k] as number) + 1;
  }
  return DWELL_CHART_BUCKETS.map((b, k) => ({ bucket: b.label, count: counts[k] as number }));
}

/**
 * Bar chart of visits per dwell bucket, each bar labelled with its count and share: how long
 * people stay. Takes bucket counts (e.g. from the analytics summary) or raw dwell times in
 * minutes, which are put into {@link DWELL_CHART_BUCKETS}. Returns a standalone SVG string.
 *
 * @example
 * dwellHistogram([3, 7.5, 12, 45, 90]).includes("5–20 min"); // true
 * dwellHistogram([{ bucket: "< 5 min", count: 4 }, { bucket: "5–20 min", count: 9 }]);
 */
export function dwellHistogram(input: readonly DwellBucketCount[] | readonly number[], options: DwellHistogramOptions = {}): string {
  if (!Array.isArray(input)) throw new TypeError("dwellHistogram: expected bucket counts or dwell minutes (an array)");
  const buckets: readonly DwellBucketCount[] =
    input.length > 0 && typeof input[0] === "number" ? bucketMinutes(input as readonly number[]) : (input as readonly DwellBucketCount[]);
  checkRows("dwellHistogram", buckets, ["count"], true);
  const unit = options.unit ?? defaultDwellHistogram.unit;
  const height = options.height ?? defaultDwellHistogram.height;
  if (!(height > 0)) throw new RangeError(`dwellHistogram: height must be > 0 px, got ${height}`);
  const total = buckets.reduce((sum, b) => sum + b.count, 0);
  const share = (n: number): string => (total === 0 ? "–" : n > 0 && (100 * n) / total < 1 ? "< 1 %" : `${Math.round((100 * n) / total)} %`);
  return renderPlot(
    {
      title: options.title ?? defaultDwellHistogram.title,
      subtitle: options.subtitle ?? `${total} ${unit} by how long the device stayed (first to last signal)`,
      ...(options.note === undefined ? {} : { note: options.note }),
    },
    {
      height,
      x: { type: "band", domain: buckets.map((b) => b.bucket), label: "dwell time", padding: 0.25 },
      y: { grid: true, label: unit, nice: true, zero: true },
      marks: [
        Plot.barY(buckets, { x: "bucket", y: "count", fill: chartTheme.color.visitors }),
        Plot.text(buckets, {
          x: "bucket",
          y: "count",
          text: (b: DwellBucketCount) => `${b.count}  (${share(b.count)})`,
          dy: -8,
          lineAnchor: "bottom",
          fill: chartTheme.ink,
          ...chartTheme.halo,
        }),
        Plot.ruleY([0], { stroke: chartTheme.ink }),
      ],
    },
  );
}
