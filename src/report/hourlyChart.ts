import * as Plot from "@observablehq/plot";
import { chartTheme } from "./chartTheme.ts";
import { checkRows } from "./checkRows.ts";
import { renderPlot, type LegendItem } from "./renderPlot.ts";

/**
 * One hour of one shop-day: devices classified as visitors and as passers-by, and optionally
 * that hour's sales (receipts, or any count on the same scale as people).
 *
 * @example
 * const row: HourlyRow = { hour: 10, visitors: 42, passersBy: 130, sales: 9 };
 */
export interface HourlyRow {
  /** Hour of day 0–23 in shop time, or a label such as "10:00"; labels keep the rows' order. */
  readonly hour: string | number;
  /** Devices whose session in this hour counted as a visit. */
  readonly visitors: number;
  /** Devices seen in this hour that only passed by. */
  readonly passersBy: number;
  /**
   * The hour's counts are below the report's `--min-count`: no bar is drawn and the hour is
   * labelled `suppressedLabel` instead (suppressed, not zero). @default false
   */
  readonly suppressed?: boolean;
  /** Receipts (or another count) in this hour; drawn as a line when any row has it. */
  readonly sales?: number;
}

/**
 * Options of {@link hourlyChart}.
 *
 * @example
 * const options: HourlyChartOptions = { title: "Shop 1 — visitors per hour" };
 */
export interface HourlyChartOptions {
  /** @default "Visitors and passers-by per hour" */
  readonly title?: string;
  /** @default a line saying what the bars and the line count */
  readonly subtitle?: string;
  /** Line under the chart (source, caveats). @default none */
  readonly note?: string;
  /** What `sales` counts, for the legend and subtitle. @default "receipts" */
  readonly salesLabel?: string;
  /**
   * Stack passers-by on the visitors' bars. `false` draws visitors only, so visitors and sales
   * share the shop floor's scale and the gap between a bar and the line is that hour's
   * conversion (passers-by outnumber visitors tenfold and would flatten both).
   * @default true
   */
  readonly passersBy?: boolean;
  /** Height of the plot with its axes, px (title and legend come on top). @default 300 */
  readonly height?: number;
  /** What a suppressed hour (`HourlyRow.suppressed`) shows instead of its bar, e.g. `"<5"`. @default "suppressed" */
  readonly suppressedLabel?: string;
}

/**
 * Defaults of {@link HourlyChartOptions}.
 *
 * @example
 * defaultHourlyChart.height; // 300
 */
export const defaultHourlyChart = Object.freeze({
  title: "Visitors and passers-by per hour",
  salesLabel: "receipts",
  height: 300,
  passersBy: true,
  suppressedLabel: "suppressed",
});

const pad2 = (h: number): string => (h < 10 ? `0${h}` : String(h));

function hourRange(from: number, to: number): string[] {
  const out: string[] = [];
  for (let h = from; h <= to; h++) out.push(pad2(h));
  return out;
}

/**
 * Stacked bars of visitors and passers-by per hour of the day, with sales per hour as a line
 * on the same axis when given: when people come, and whether buying follows them. With
 * `passersBy: false` the bars are visitors only (what the HTML report shows next to receipts). Numeric
 * hours are drawn on a continuous axis (missing hours as gaps); labels keep their order. Returns a
 * standalone SVG string (Observable Plot, rendered server-side; works under Node and Deno).
 *
 * @example
 * const svg = hourlyChart([
 *   { hour: 9, visitors: 12, passersBy: 80, sales: 3 },
 *   { hour: 10, visitors: 30, passersBy: 120, sales: 8 },
 * ]);
 * svg.includes("xmlns"); // true
 * hourlyChart(rows, { passersBy: false, title: "Did buying follow the visitors?" });
 */
export function hourlyChart(rows: readonly HourlyRow[], options: HourlyChartOptions = {}): string {
  checkRows("hourlyChart", rows, ["visitors", "passersBy", "sales"], true);
  const title = options.title ?? defaultHourlyChart.title;
  const salesLabel = options.salesLabel ?? defaultHourlyChart.salesLabel;
  const height = options.height ?? defaultHourlyChart.height;
  if (!(height > 0)) throw new RangeError(`hourlyChart: height must be > 0 px, got ${height}`);
  const passersBy = options.passersBy ?? defaultHourlyChart.passersBy;
  if (typeof passersBy !== "boolean") throw new TypeError(`hourlyChart: passersBy must be a boolean, got ${typeof passersBy}`);
  const series = passersBy ? ["visitors", "passers-by"] : ["visitors"];
  const numeric = rows.every((r) => typeof r.hour === "number");
  const ordered = numeric ? [...rows].sort((a, b) => (a.hour as number) - (b.hour as number)) : rows;
  const label = (h: string | number): string => (typeof h === "number" ? pad2(h) : h);
  // Numeric hours get every hour between the first and the last, so a quiet hour shows as a gap
  // instead of vanishing from the axis.
  const domain = numeric && ordered.length > 0 ? hourRange(ordered[0]!.hour as number, ordered[ordered.length - 1]!.hour as number) : ordered.map((r) => label(r.hour));
  const hasSales = rows.some((r) => r.sales !== undefined);

  const bars: { hour: string; series: string; count: number }[] = [];
  const suppressed: { hour: string }[] = [];
  for (const r of ordered) {
    if (r.suppressed === true) {
      suppressed.push({ hour: label(r.hour) });
      continue;
    }
    bars.push({ hour: label(r.hour), series: "visitors", count: r.visitors });
    if (passersBy) bars.push({ hour: label(r.hour), series: "passers-by", count: r.passersBy });
  }
  const sales = hasSales ? ordered.filter((r) => r.sales !== undefined).map((r) => ({ hour: label(r.hour), sales: r.sales as number })) : [];
  const legend: LegendItem[] = [{ label: "visitors", color: chartTheme.color.visitors }];
  if (passersBy) legend.push({ label: "passers-by", color: chartTheme.color.passersBy });
  if (hasSales) legend.push({ label: salesLabel, color: chartTheme.color.sales, shape: "line" });

  return renderPlot(
    {
      title,
      subtitle:
        options.subtitle ??
        (passersBy
          ? `Devices seen per hour (stacked: visitors + passers-by)${hasSales ? `, ${salesLabel} per hour as a line` : ""}`
          : `Visitors per hour (bars)${hasSales ? `, ${salesLabel} per hour (line)` : ""}, passers-by left out`),
      legend,
      ...(options.note === undefined ? {} : { note: options.note }),
    },
    {
      height,
      x: { type: "band", domain, label: numeric ? "hour of day (shop time)" : "hour", padding: 0.15 },
      y: { grid: true, label: `${passersBy ? "devices" : "visitors"}${hasSales ? ` / ${salesLabel}` : ""} per hour`, nice: true, zero: true },
      color: { domain: series, range: [chartTheme.color.visitors, chartTheme.color.passersBy].slice(0, series.length) },
      marks: [
        Plot.barY(bars, { x: "hour", y: "count", fill: "series", order: series, title: (d: { series: string; count: number }) => `${d.series}: ${d.count}` }),
        Plot.ruleY([0], { stroke: chartTheme.ink }),
        // Suppressed hours: a label where the bar would stand, never a bar of height zero.
        Plot.text(suppressed, { x: "hour", y: 0, text: () => options.suppressedLabel ?? defaultHourlyChart.suppressedLabel, dy: -8, fill: chartTheme.ink, fontSize: 10 }),
        ...(hasSales
          ? [
              Plot.line(sales, { x: "hour", y: "sales", stroke: chartTheme.color.sales, strokeWidth: 2.5 }),
              Plot.dot(sales, { x: "hour", y: "sales", fill: chartTheme.color.sales, r: 3.5, stroke: chartTheme.background }),
            ]
          : []),
      ],
    },
  );
}
