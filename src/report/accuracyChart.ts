import * as Plot from "@observablehq/plot";
import { chartTheme } from "./chartTheme.ts";
import { checkRows } from "./checkRows.ts";
import { renderPlot, type LegendItem } from "./renderPlot.ts";

/**
 * One measured figure next to its true value, e.g. visitors estimated from signals against the
 * simulator's ground truth.
 *
 * @example
 * const row: AccuracyRow = { label: "Gangnam · visitors", estimated: 412, truth: 400 };
 */
export interface AccuracyRow {
  /** What was measured, e.g. "shop 1 · visitors". */
  readonly label: string;
  /** The figure footfall computed. */
  readonly estimated: number;
  /** The true figure. */
  readonly truth: number;
}

/**
 * Options of {@link accuracyChart}.
 *
 * @example
 * const options: AccuracyChartOptions = { tolerancePct: 5 };
 */
export interface AccuracyChartOptions {
  /** @default "Accuracy against ground truth" */
  readonly title?: string;
  /** @default a line defining the error */
  readonly subtitle?: string;
  /** Line under the chart. @default none */
  readonly note?: string;
  /** Errors within ± this many percent are drawn as on target. @default 10 */
  readonly tolerancePct?: number;
}

/**
 * Defaults of {@link AccuracyChartOptions}.
 *
 * @example
 * defaultAccuracyChart.tolerancePct; // 10
 */
export const defaultAccuracyChart = Object.freeze({ title: "Accuracy against ground truth", tolerancePct: 10 });

/**
 * Diverging bars of the relative error (estimated − truth) ÷ truth in %, one per figure, with
 * the ± tolerance band dashed and each bar labelled "estimate vs truth": how far the analytics
 * are from what really happened, comparable across figures of different units. Figures whose
 * truth is 0 get a label and no bar. Returns a standalone SVG string.
 *
 * @example
 * accuracyChart([
 *   { label: "visitors", estimated: 412, truth: 400 },
 *   { label: "median dwell (min)", estimated: 17.5, truth: 19 },
 * ]);
 */
export function accuracyChart(rows: readonly AccuracyRow[], options: AccuracyChartOptions = {}): string {
  checkRows("accuracyChart", rows, ["estimated", "truth"], false);
  const tol = options.tolerancePct ?? defaultAccuracyChart.tolerancePct;
  if (!(tol >= 0) || !Number.isFinite(tol)) throw new RangeError(`accuracyChart: tolerancePct must be a finite number ≥ 0, got ${tol}`);
  const fmt = (v: number): string => (Number.isInteger(v) ? String(v) : v.toFixed(1));
  const data = rows.map((r) => {
    const error = r.truth !== 0 ? (100 * (r.estimated - r.truth)) / Math.abs(r.truth) : r.estimated === 0 ? 0 : Number.NaN;
    const within = Math.abs(error) <= tol;
    return {
      label: r.label,
      error: Number.isNaN(error) ? 0 : error,
      within,
      text: `${fmt(r.estimated)} vs ${fmt(r.truth)}  (${Number.isNaN(error) ? "truth is 0" : `${error >= 0 ? "+" : ""}${error.toFixed(1)} %`})`,
    };
  });
  const labels = data.map((d) => d.label);
  const extent = Math.max(tol * 1.5, 5, ...data.map((d) => Math.abs(d.error)));
  const legend: LegendItem[] = [
    { label: `within ±${tol} %`, color: chartTheme.color.estimate },
    { label: `off by more than ${tol} %`, color: chartTheme.color.sales },
  ];
  return renderPlot(
    {
      title: options.title ?? defaultAccuracyChart.title,
      subtitle: options.subtitle ?? "Relative error of each figure: (estimated − truth) ÷ truth; labels read estimate vs truth",
      legend,
      ...(options.note === undefined ? {} : { note: options.note }),
    },
    {
      height: 76 + 32 * Math.max(1, labels.length),
      marginLeft: Math.min(Math.round(chartTheme.width * 0.45), 28 + 7 * Math.max(4, ...labels.map((l) => l.length))),
      marginRight: 24,
      // Symmetric, and wide enough right of each bar for its label.
      x: { domain: [-extent * 1.6, extent * 2.6], label: "error (%)", grid: true },
      y: { domain: labels, label: null, tickSize: 0, padding: 0.25 },
      color: { domain: [true, false], range: [chartTheme.color.estimate, chartTheme.color.sales] },
      marks: [
        Plot.ruleX([-tol, tol], { stroke: chartTheme.muted, strokeDasharray: "4,3" }),
        Plot.barX(data, { y: "label", x: "error", fill: "within" }),
        Plot.ruleX([0], { stroke: chartTheme.ink }),
        Plot.text(data, { y: "label", x: (d: { error: number }) => Math.max(0, d.error), text: "text", textAnchor: "start", dx: 6, fill: chartTheme.ink, ...chartTheme.halo }),
      ],
    },
  );
}
