import * as Plot from "@observablehq/plot";
import { chartTheme } from "./chartTheme.ts";
import type { HourlyRow } from "./hourlyChart.ts";
import { renderPlot } from "./renderPlot.ts";

/**
 * Options of {@link visitorsReceiptsChart}.
 *
 * @example
 * const options: VisitorsReceiptsChartOptions = { title: "Gangnam: visitors and receipts", height: 220 };
 */
export interface VisitorsReceiptsChartOptions {
  /** @default "Did buying follow the visitors?" */
  readonly title?: string;
  /** @default a line saying what the bars and the line count */
  readonly subtitle?: string;
  /** Height of the plot with its axes, px. @default 260 */
  readonly height?: number;
}

/**
 * Defaults of {@link VisitorsReceiptsChartOptions}.
 *
 * @example
 * defaultVisitorsReceiptsChart.height; // 260
 */
export const defaultVisitorsReceiptsChart = Object.freeze({ title: "Did buying follow the visitors?", height: 260 });

const pad2 = (h: number): string => (h < 10 ? `0${h}` : String(h));

/**
 * Bars of visitors per hour with receipts per hour as a line on the same axis, passers-by left
 * out: on the shop floor's own scale, where the gap between the bars and the line is the
 * conversion of that hour. Rows as for `hourlyChart` (`sales` = receipts). Returns a standalone
 * SVG string (Observable Plot via `renderPlot`).
 *
 * @example
 * visitorsReceiptsChart([{ hour: 12, visitors: 40, passersBy: 500, sales: 18 }, { hour: 13, visitors: 35, passersBy: 420, sales: 15 }]);
 */
export function visitorsReceiptsChart(rows: readonly HourlyRow[], options: VisitorsReceiptsChartOptions = {}): string {
  if (!Array.isArray(rows)) throw new TypeError("visitorsReceiptsChart: expected an array of hourly rows");
  const height = options.height ?? defaultVisitorsReceiptsChart.height;
  if (!(height > 0)) throw new RangeError(`visitorsReceiptsChart: height must be > 0 px, got ${height}`);
  const numeric = rows.every((r) => typeof r.hour === "number");
  const ordered = numeric ? [...rows].sort((a, b) => (a.hour as number) - (b.hour as number)) : [...rows];
  const label = (h: string | number): string => (typeof h === "number" ? pad2(h) : h);
  const bars = ordered.map((r) => ({ hour: label(r.hour), visitors: r.visitors }));
  const line = ordered.filter((r) => r.sales !== undefined).map((r) => ({ hour: label(r.hour), receipts: r.sales as number }));
  return renderPlot(
    {
      title: options.title ?? defaultVisitorsReceiptsChart.title,
      subtitle: options.subtitle ?? "Visitors per hour (bars) and receipts per hour (line), shop time",
      legend: [
        { label: "visitors", color: chartTheme.color.visitors },
        ...(line.length > 0 ? [{ label: "receipts", color: chartTheme.color.sales, shape: "line" as const }] : []),
      ],
    },
    {
      height,
      x: { type: "band", domain: bars.map((b) => b.hour), label: numeric ? "hour of day (shop time)" : "hour", padding: 0.2 },
      y: { grid: true, label: "per hour", nice: true, zero: true },
      marks: [
        Plot.barY(bars, { x: "hour", y: "visitors", fill: chartTheme.color.visitors, title: (d: { visitors: number }) => `visitors: ${d.visitors}` }),
        Plot.ruleY([0], { stroke: chartTheme.ink }),
        ...(line.length > 0
          ? [
              Plot.line(line, { x: "hour", y: "receipts", stroke: chartTheme.color.sales, strokeWidth: 2.5 }),
              Plot.dot(line, { x: "hour", y: "receipts", fill: chartTheme.color.sales, r: 3.5, stroke: chartTheme.background }),
            ]
          : []),
      ],
    },
  );
}
