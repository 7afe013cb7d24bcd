import * as Plot from "@observablehq/plot";
import { chartTheme } from "./chartTheme.ts";
import { checkRows } from "./checkRows.ts";
import { renderPlot } from "./renderPlot.ts";
import { DWELL_BUCKETS, dwellBucket, type DwellBuckets } from "../kernels/visits/dwellStats.ts";

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

function bucketMinutes(minutes: readonly number[]): DwellBucketCount[] {
  const counts: Record<keyof DwellBuckets, number> = { lt5m: 0, m5to20: 0, m20to60: 0, h1to6: 0, ge6h: 0 };
  for (let i = 0; i < minutes.length; i++) {
    const m = minutes[i] as number;
    if (typeof m !== "number" || !Number.isFinite(m) || m < 0) {
      throw new RangeError(`dwellHistogram: dwell ${i} must be a finite number of minutes ≥ 0, got ${String(m)}`);
    }
    counts[dwellBucket(m * 60_000)]++;
  }
  return fromBuckets(counts);
}

function fromBuckets(buckets: DwellBuckets): DwellBucketCount[] {
  return DWELL_BUCKETS.map((b) => ({ bucket: b.label, count: buckets[b.key] }));
}

/**
 * Bar chart of visits per dwell bucket, each bar labelled with its count and share: how long
 * people stay. Takes the analytics' `DwellBuckets` (e.g. `result.days[0].dwell.buckets`), raw
 * dwell times in minutes (put into the same buckets, `DWELL_BUCKETS`: < 5 min, 5–20 min,
 * 20–60 min, 1–6 h, ≥ 6 h), or bucket counts with labels of your own. Returns a standalone SVG string.
 *
 * @example
 * dwellHistogram({ lt5m: 12, m5to20: 30, m20to60: 9, h1to6: 2, ge6h: 0 });
 * dwellHistogram([3, 7.5, 12, 45, 90]).includes("5–20 min"); // true
 * dwellHistogram([{ bucket: "short", count: 4 }, { bucket: "long", count: 9 }]);
 */
export function dwellHistogram(
  input: DwellBuckets | readonly DwellBucketCount[] | readonly number[],
  options: DwellHistogramOptions = {},
): string {
  if (input === null || typeof input !== "object") throw new TypeError("dwellHistogram: expected dwell buckets, bucket counts or dwell minutes");
  const buckets: readonly DwellBucketCount[] = !Array.isArray(input)
    ? fromBuckets(input as DwellBuckets)
    : input.length > 0 && typeof input[0] === "number"
      ? bucketMinutes(input as readonly number[])
      : (input as readonly DwellBucketCount[]);
  checkRows("dwellHistogram", buckets, ["count"], true);
  const unit = options.unit ?? defaultDwellHistogram.unit;
  const height = options.height ?? defaultDwellHistogram.height;
  if (!(height > 0)) throw new RangeError(`dwellHistogram: height must be > 0 px, got ${height}`);
  const total = buckets.reduce((sum, b) => sum + b.count, 0);
  const share = (n: number): string => (total === 0 ? "–" : n > 0 && (100 * n) / total < 1 ? "< 1 %" : `${Math.round((100 * n) / total)} %`);
  return renderPlot(
    {
      title: options.title ?? defaultDwellHistogram.title,
      subtitle: options.subtitle ?? `${total} ${unit} by how long the device stayed`,
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
