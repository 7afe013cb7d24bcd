import * as Plot from "@observablehq/plot";
import { chartTheme } from "./chartTheme.ts";
import { checkRows } from "./checkRows.ts";
import { renderPlot, type LegendItem } from "./renderPlot.ts";
import { linesWidth, textWidth, wrapText } from "./textWidth.ts";

/** Space between a bar's end and its label, px. */
const LABEL_GAP = 6;
/** Clear space kept between a label's end and the picture's right edge, px (as the title's left). */
const EDGE = 12;

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
 * truth is 0 get a label and no bar. Long figure names wrap onto more lines, and the axis reaches
 * far enough right that every label fits inside the picture. Returns a standalone SVG string.
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
  // Long labels wrap onto more lines instead of running off the left edge.
  const wrapLabel = (label: string): string => wrapText(label, chartTheme.width * 0.4 - 20);
  const data = rows.map((r) => {
    const error = r.truth !== 0 ? (100 * (r.estimated - r.truth)) / Math.abs(r.truth) : r.estimated === 0 ? 0 : Number.NaN;
    const within = Math.abs(error) <= tol;
    return {
      label: wrapLabel(r.label),
      error: Number.isNaN(error) ? 0 : error,
      within,
      text: `${fmt(r.estimated)} vs ${fmt(r.truth)}  (${Number.isNaN(error) ? "truth is 0" : `${error >= 0 ? "+" : ""}${error.toFixed(1)} %`})`,
    };
  });
  const legend: LegendItem[] = [
    { label: `within ±${tol} %`, color: chartTheme.color.estimate },
    { label: `off by more than ${tol} %`, color: chartTheme.color.sales },
  ];
  const width = chartTheme.width;
  const labels = [...new Set(data.map((d) => d.label))];
  const lines = Math.max(1, ...labels.map((l) => l.split("\n").length));
  const marginLeft = Math.max(60, Math.ceil(20 + Math.max(0, ...labels.map((l) => linesWidth(l)))));
  const marginRight = 24;
  const plotWidth = width - marginLeft - marginRight;
  // Left of zero: room for the tolerance band and the longest negative bar. Right of it, each
  // label starts at its bar's end (or at zero) and must end inside the picture, which sets the
  // upper end of the domain.
  const lo = -1.1 * Math.max(tol * 1.5, 5, ...data.map((d) => -d.error));
  const room = width - marginLeft - EDGE;
  let hi = 1.1 * Math.max(tol * 1.5, 5, ...data.map((d) => d.error));
  for (const d of data) {
    const free = Math.max(room * 0.1, room - LABEL_GAP - textWidth(d.text));
    hi = Math.max(hi, lo + ((Math.max(0, d.error) - lo) * plotWidth) / free);
  }
  return renderPlot(
    {
      title: options.title ?? defaultAccuracyChart.title,
      subtitle: options.subtitle ?? "Relative error of each figure: (estimated − truth) ÷ truth; labels read estimate vs truth",
      legend,
      ...(options.note === undefined ? {} : { note: options.note }),
    },
    {
      height: 76 + (18 + 14 * lines) * Math.max(1, labels.length),
      marginLeft,
      marginRight,
      x: { domain: [lo, hi], label: "error (%)", grid: true },
      y: { domain: labels, label: null, tickSize: 0, padding: 0.25 },
      color: { domain: [true, false], range: [chartTheme.color.estimate, chartTheme.color.sales] },
      marks: [
        Plot.ruleX([-tol, tol], { stroke: chartTheme.muted, strokeDasharray: "4,3" }),
        Plot.barX(data, { y: "label", x: "error", fill: "within" }),
        Plot.ruleX([0], { stroke: chartTheme.ink }),
        Plot.text(data, { y: "label", x: (d: { error: number }) => Math.max(0, d.error), text: "text", textAnchor: "start", dx: LABEL_GAP, fill: chartTheme.ink, ...chartTheme.halo }),
      ],
    },
  );
}
