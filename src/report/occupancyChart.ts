import { DEFAULT_TIME_ZONE } from "../time/timeZone.ts";
import * as Plot from "@observablehq/plot";
import { chartTheme } from "./chartTheme.ts";
import { checkRows } from "./checkRows.ts";
import { renderPlot, type LegendItem } from "./renderPlot.ts";

/**
 * One occupancy interval of one shop: the estimated mean number of people inside with its
 * interval, people outside, and optionally the truth — an `OccupancyInterval` of the people
 * estimator (`analyze().occupancy`, `estimateOccupancy`) has every field but `truth`.
 *
 * @example
 * const row: OccupancyRow = { start: 1794790800000, end: 1794791700000, inside: 7.4, insideLow: 6.1, insideHigh: 8.7, outside: 21.3, truth: 7 };
 */
export interface OccupancyRow {
  /** Interval start, epoch ms (inclusive). */
  readonly start: number;
  /** Interval end, epoch ms (exclusive). */
  readonly end: number;
  /** Estimated mean people (phones) inside over the interval. */
  readonly inside: number;
  /** Lower end of the interval of `inside`. */
  readonly insideLow: number;
  /** Upper end of the interval of `inside`. */
  readonly insideHigh: number;
  /** Estimated mean people outside (heard through the street wall); not drawn when absent. */
  readonly outside?: number;
  /** True mean people inside (the simulator's, or a manual count); not drawn when absent. */
  readonly truth?: number;
  /** Another estimate to compare with (an analyst's fit, a door counter's model), drawn dashed; not drawn when absent. */
  readonly baseline?: number;
}

/**
 * Options of {@link occupancyChart}.
 *
 * @example
 * const options: OccupancyChartOptions = { timeZone: "Asia/Seoul", title: "Gangnam: people inside" };
 */
export interface OccupancyChartOptions {
  /** @default "People inside over the day" */
  readonly title?: string;
  /** @default a line saying what the band, lines and interval length are */
  readonly subtitle?: string;
  /** Line under the chart. @default none */
  readonly note?: string;
  /** IANA time zone of the shop: the x axis is its local time of day. @default "Asia/Seoul" */
  readonly timeZone?: string;
  /** Level of the band, for the legend. @default 0.9 */
  readonly level?: number;
  /**
   * Local hours shown, `[from, to]`. @default the intervals with anyone inside or outside
   * (or the truth), one hour either side: the night's empty hours would only squeeze the day.
   */
  readonly hours?: readonly [number, number];
  /** Height of the plot with its axes, px. @default 300 */
  readonly height?: number;
  /** What `baseline` is, for the legend. @default "another estimate" */
  readonly baselineLabel?: string;
}

/**
 * Defaults of {@link OccupancyChartOptions}.
 *
 * @example
 * defaultOccupancyChart.timeZone; // "Asia/Seoul"
 */
export const defaultOccupancyChart = Object.freeze({ title: "People inside over the day", timeZone: DEFAULT_TIME_ZONE, level: 0.9, height: 300 });

// Below this many people an interval counts as empty when the shown hours are chosen.
const EMPTY = 0.05;

/**
 * Occupancy over a day: per interval the estimated mean people inside as a line with its
 * interval as a shaded band (`insideLow`…`insideHigh`), people outside as a dashed grey line and,
 * when given, another estimate to compare with as a dotted orange line and the true mean inside as
 * a dark line — against the shop's local time of day, so a shop in another zone reads in its own
 * hours. Each value is drawn at its interval's middle.
 * Returns a standalone SVG string.
 *
 * @example
 * const t0 = Date.parse("2026-11-16T12:00:00+09:00");
 * occupancyChart([
 *   { start: t0, end: t0 + 900_000, inside: 6.2, insideLow: 4.9, insideHigh: 7.5, outside: 9.1, truth: 6 },
 *   { start: t0 + 900_000, end: t0 + 1_800_000, inside: 8.0, insideLow: 6.4, insideHigh: 9.6, outside: 11.4, truth: 9 },
 * ], { timeZone: "Asia/Seoul" });
 */
export function occupancyChart(rows: readonly OccupancyRow[], options: OccupancyChartOptions = {}): string {
  checkRows("occupancyChart", rows, ["start", "end"], false);
  checkRows("occupancyChart", rows, ["inside", "insideLow", "insideHigh", "outside", "truth", "baseline"], true);
  for (const [i, r] of rows.entries()) {
    if (!(r.end > r.start)) throw new RangeError(`occupancyChart: row ${i}: end must be after start`);
    if (!(r.insideLow <= r.inside && r.inside <= r.insideHigh)) throw new RangeError(`occupancyChart: row ${i}: insideLow ≤ inside ≤ insideHigh must hold`);
  }
  const timeZone = options.timeZone ?? defaultOccupancyChart.timeZone;
  const hourOf = localHours(timeZone);
  const height = options.height ?? defaultOccupancyChart.height;
  if (!(height > 0)) throw new RangeError(`occupancyChart: height must be > 0 px, got ${height}`);
  const level = options.level ?? defaultOccupancyChart.level;
  const sorted = [...rows].sort((a, b) => a.start - b.start);
  const data = sorted.map((r) => {
    // The end from the start's hour and the length, so a day's last interval ends at 24, not 0.
    const from = hourOf(r.start);
    const to = from + (r.end - r.start) / 3_600_000;
    return { ...r, from, to, mid: (from + to) / 2 };
  });
  let lo: number;
  let hi: number;
  if (options.hours !== undefined) {
    [lo, hi] = options.hours;
    if (!(lo >= 0 && hi <= 24 && lo < hi)) throw new RangeError(`occupancyChart: hours must be [from, to] with 0 ≤ from < to ≤ 24, got [${lo}, ${hi}]`);
  } else {
    const busy = data.filter((d) => d.insideHigh > EMPTY || (d.outside ?? 0) > EMPTY || (d.truth ?? 0) > EMPTY);
    lo = busy.length === 0 ? 0 : Math.max(0, Math.floor(Math.min(...busy.map((d) => d.from))) - 1);
    hi = busy.length === 0 ? 24 : Math.min(24, Math.ceil(Math.max(...busy.map((d) => d.to))) + 1);
  }
  const shown = data.filter((d) => d.to > lo && d.from < hi);
  const hasOutside = shown.some((d) => d.outside !== undefined);
  const hasTruth = shown.some((d) => d.truth !== undefined);
  const hasBaseline = shown.some((d) => d.baseline !== undefined);
  const minutes = shown.length > 0 ? Math.round((shown[0]!.end - shown[0]!.start) / 60_000) : 15;
  const legend: LegendItem[] = [
    { label: "inside (estimate)", color: chartTheme.color.visitors, shape: "line" },
    { label: `${Math.round(level * 100)} % interval`, color: BAND },
  ];
  if (hasTruth) legend.push({ label: "inside (truth)", color: chartTheme.ink, shape: "line" });
  if (hasOutside) legend.push({ label: "outside (estimate)", color: chartTheme.color.passersBy, shape: "line" });
  if (hasBaseline) legend.push({ label: options.baselineLabel ?? "another estimate", color: BASELINE, shape: "line" });
  return renderPlot(
    {
      title: options.title ?? defaultOccupancyChart.title,
      subtitle: options.subtitle ?? `Mean people inside per ${minutes} min (phones of visitors; staff left out)${hasOutside ? ", and heard outside" : ""}`,
      legend,
      ...(options.note === undefined ? {} : { note: options.note }),
    },
    {
      height,
      x: { domain: [lo, hi], label: "local time", ticks: ticksOf(lo, hi), tickFormat: (h: number) => `${String(h).padStart(2, "0")}:00`, grid: true },
      y: { label: "people", grid: true, nice: true, zero: true },
      marks: [
        Plot.rectY(shown, { x1: "from", x2: "to", y1: "insideLow", y2: "insideHigh", fill: BAND, inset: 0 }),
        ...(hasOutside
          ? [Plot.line(shown.filter((d) => d.outside !== undefined), { x: "mid", y: "outside", stroke: chartTheme.color.passersBy, strokeWidth: 2, strokeDasharray: "5,3" })]
          : []),
        Plot.line(shown, { x: "mid", y: "inside", stroke: chartTheme.color.visitors, strokeWidth: 2.5 }),
        ...(hasBaseline ? [Plot.line(shown.filter((d) => d.baseline !== undefined), { x: "mid", y: "baseline", stroke: BASELINE, strokeWidth: 2, strokeDasharray: "2,3" })] : []),
        ...(hasTruth ? [Plot.line(shown.filter((d) => d.truth !== undefined), { x: "mid", y: "truth", stroke: chartTheme.ink, strokeWidth: 1.5 })] : []),
        Plot.ruleY([0], { stroke: chartTheme.ink }),
      ],
    },
  );
}

// A light tint of the visitors' blue: the band stays behind the lines and prints on white.
const BAND = "#c9dafa";
// An orange apart from the estimate's blue and the outside's grey.
const BASELINE = "#d9822b";

function ticksOf(lo: number, hi: number): number[] {
  const step = hi - lo > 12 ? 2 : 1;
  const out: number[] = [];
  for (let h = Math.ceil(lo / step) * step; h <= hi; h += step) out.push(h);
  return out;
}

// Local hours of the day (fractional) of instants in one zone: the formatter is built once per
// chart, so this is a few dozen Intl calls per shop, not per-record work.
function localHours(timeZone: string): (ms: number) => number {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-GB", { timeZone, hourCycle: "h23", hour: "2-digit", minute: "2-digit", second: "2-digit" });
  } catch {
    throw new RangeError(`occupancyChart: unknown time zone ${timeZone}`);
  }
  return (ms) => {
    let h = 0;
    let m = 0;
    let s = 0;
    for (const p of format.formatToParts(ms)) {
      if (p.type === "hour") h = Number(p.value);
      else if (p.type === "minute") m = Number(p.value);
      else if (p.type === "second") s = Number(p.value);
    }
    return h + m / 60 + s / 3600;
  };
}
