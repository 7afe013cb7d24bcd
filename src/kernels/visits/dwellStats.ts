import { mean, quantileSorted } from "simple-statistics";

const MIN = 60_000;
const HOUR = 3_600_000;

/**
 * Counts of dwell times per bucket: under 5 min, 5–20 min, 20–60 min, 1–6 h, 6 h and more
 * (each bucket includes its lower bound).
 *
 * @example
 * const b: DwellBuckets = { lt5m: 3, m5to20: 10, m20to60: 4, h1to6: 1, ge6h: 0 };
 */
export interface DwellBuckets {
  /** Under 5 minutes. */
  readonly lt5m: number;
  /** 5 to under 20 minutes. */
  readonly m5to20: number;
  /** 20 to under 60 minutes. */
  readonly m20to60: number;
  /** 1 to under 6 hours. */
  readonly h1to6: number;
  /** 6 hours or more. */
  readonly ge6h: number;
}

/**
 * The dwell buckets in order, with their bounds in ms and a label for tables and charts.
 *
 * @example
 * DWELL_BUCKETS.map((b) => b.label); // ["<5 min", "5–20 min", "20–60 min", "1–6 h", "≥6 h"]
 */
export const DWELL_BUCKETS: readonly { readonly key: keyof DwellBuckets; readonly label: string; readonly fromMs: number; readonly toMs: number }[] =
  Object.freeze([
    { key: "lt5m", label: "<5 min", fromMs: 0, toMs: 5 * MIN },
    { key: "m5to20", label: "5–20 min", fromMs: 5 * MIN, toMs: 20 * MIN },
    { key: "m20to60", label: "20–60 min", fromMs: 20 * MIN, toMs: 60 * MIN },
    { key: "h1to6", label: "1–6 h", fromMs: HOUR, toMs: 6 * HOUR },
    { key: "ge6h", label: "≥6 h", fromMs: 6 * HOUR, toMs: Number.POSITIVE_INFINITY },
  ]);

/**
 * The bucket a dwell time (ms) falls in.
 *
 * @example
 * dwellBucket(4 * 60_000);  // "lt5m"
 * dwellBucket(5 * 60_000);  // "m5to20"
 * dwellBucket(7 * 3_600_000); // "ge6h"
 */
export function dwellBucket(dwellMs: number): keyof DwellBuckets {
  if (dwellMs < 5 * MIN) return "lt5m";
  if (dwellMs < 20 * MIN) return "m5to20";
  if (dwellMs < HOUR) return "m20to60";
  if (dwellMs < 6 * HOUR) return "h1to6";
  return "ge6h";
}

/**
 * Summary of a set of dwell times, ms. Statistics are `NaN` (JSON `null`) when `count` is 0.
 *
 * @example
 * const d: DwellStats = dwellStats([60_000, 600_000]);
 */
export interface DwellStats {
  /** Number of dwell times. */
  readonly count: number;
  /** Arithmetic mean, ms. */
  readonly meanMs: number;
  /** Median, ms. */
  readonly medianMs: number;
  /** 90th percentile, ms. */
  readonly p90Ms: number;
  /** Counts per bucket. */
  readonly buckets: DwellBuckets;
}

/**
 * Count, mean, median, 90th percentile and bucket counts of dwell times (ms), via simple-statistics
 * (`mean`, `quantileSorted`: linear interpolation between ranks, R/numpy type 7). Does not modify
 * `dwellsMs`.
 *
 * @example
 * const s = dwellStats([2 * 60_000, 10 * 60_000, 30 * 60_000]);
 * s.medianMs;       // 600000
 * s.buckets.m5to20; // 1
 * dwellStats([]).count; // 0 (statistics NaN)
 */
export function dwellStats(dwellsMs: readonly number[]): DwellStats {
  const buckets = { lt5m: 0, m5to20: 0, m20to60: 0, h1to6: 0, ge6h: 0 };
  for (let i = 0; i < dwellsMs.length; i++) buckets[dwellBucket(dwellsMs[i]!)]++;
  if (dwellsMs.length === 0) return { count: 0, meanMs: Number.NaN, medianMs: Number.NaN, p90Ms: Number.NaN, buckets };
  const sorted = Float64Array.from(dwellsMs).sort();
  const values = Array.from(sorted);
  return {
    count: values.length,
    meanMs: mean(values),
    medianMs: quantileSorted(values, 0.5),
    p90Ms: quantileSorted(values, 0.9),
    buckets,
  };
}
