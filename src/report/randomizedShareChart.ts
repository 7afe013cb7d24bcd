import * as Plot from "@observablehq/plot";
import { chartTheme } from "./chartTheme.ts";
import { checkRows } from "./checkRows.ts";
import { renderPlot, type LegendItem } from "./renderPlot.ts";

/**
 * A count of devices (or sessions, or signals) in one series, e.g. randomized vs universal MACs,
 * optionally per group (a shop, a day).
 *
 * @example
 * const row: ShareRow = { series: "randomized", count: 812, group: "shop 1" };
 */
export interface ShareRow {
  /** Series name; "randomized" and "universal" get fixed colours. */
  readonly series: string;
  /** Count in the series. */
  readonly count: number;
  /** Group (one bar each). @default "all" */
  readonly group?: string;
}

/**
 * Options of {@link randomizedShareChart}.
 *
 * @example
 * const options: RandomizedShareChartOptions = { unit: "sessions" };
 */
export interface RandomizedShareChartOptions {
  /** @default "Randomized vs universal MAC addresses" */
  readonly title?: string;
  /** @default a line explaining the split */
  readonly subtitle?: string;
  /** Line under the chart. @default none */
  readonly note?: string;
  /** What is counted, for labels. @default "devices" */
  readonly unit?: string;
}

/**
 * Defaults of {@link RandomizedShareChartOptions}.
 *
 * @example
 * defaultRandomizedShareChart.unit; // "devices"
 */
export const defaultRandomizedShareChart = Object.freeze({ title: "Randomized vs universal MAC addresses", unit: "devices" });

/**
 * 100 % stacked horizontal bars, one per group, of the share of each series, labelled with
 * percent and count: how much of the traffic comes from phones hiding behind randomized
 * (locally administered) MACs, which count once per MAC rotation rather than per person.
 * Returns a standalone SVG string.
 *
 * @example
 * randomizedShareChart([
 *   { series: "randomized", count: 640 },
 *   { series: "universal", count: 360 },
 * ]);
 */
export function randomizedShareChart(rows: readonly ShareRow[], options: RandomizedShareChartOptions = {}): string {
  checkRows("randomizedShareChart", rows, ["count"], true);
  const unit = options.unit ?? defaultRandomizedShareChart.unit;
  const groups: string[] = [];
  const series: string[] = [];
  for (const r of rows) {
    const g = r.group ?? "all";
    if (!groups.includes(g)) groups.push(g);
    if (!series.includes(r.series)) series.push(r.series);
  }
  series.sort((a, b) => rank(a) - rank(b));
  const colors = series.map((s, i) =>
    s === "randomized" ? chartTheme.color.randomized : s === "universal" ? chartTheme.color.universal : (chartTheme.color.series[(i + 2) % chartTheme.color.series.length] as string),
  );
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(r.group ?? "all", (totals.get(r.group ?? "all") ?? 0) + r.count);
  const data = rows.map((r) => {
    const group = r.group ?? "all";
    const total = totals.get(group) ?? 0;
    return { group, series: r.series, count: r.count, share: total > 0 ? r.count / total : 0 };
  });
  const legend: LegendItem[] = series.map((s, i) => ({ label: s, color: colors[i] as string }));
  const single = groups.length === 1 && groups[0] === "all";
  const stack = { y: "group", x: "share", z: "series", order: series } as const;
  return renderPlot(
    {
      title: options.title ?? defaultRandomizedShareChart.title,
      subtitle:
        options.subtitle ??
        `Share of ${unit} by MAC kind (locally administered bit set = randomized)${single ? `, ${totals.get("all") ?? 0} ${unit} in all` : ""}`,
      legend,
      ...(options.note === undefined ? {} : { note: options.note }),
    },
    {
      height: 76 + 40 * groups.length,
      marginLeft: single ? 16 : Math.min(200, 28 + 7.5 * Math.max(4, ...groups.map((g) => g.length))),
      marginRight: 24,
      x: { domain: [0, 1], label: `share of ${unit} (%)`, tickFormat: (v: number) => `${Math.round(v * 100)}`, grid: true },
      y: { domain: groups, label: null, tickSize: 0, padding: 0.15, axis: single ? null : "left" },
      color: { domain: series, range: colors },
      marks: [
        Plot.barX(data, Plot.stackX({ ...stack, fill: "series", title: (d: { series: string; count: number }) => `${d.series}: ${d.count}` })),
        Plot.text(
          data,
          Plot.stackX({
            ...stack,
            // Stacked over all rows so labels sit on their bars; too narrow a bar gets no label.
            text: (d: { share: number; count: number }) => (d.share >= 0.08 ? `${Math.round(d.share * 100)} %  (${d.count})` : ""),
            fill: "white",
            fontWeight: 600,
          }),
        ),
      ],
    },
  );
}

// Randomized first, universal second, others after, so the colours read the same in every chart.
function rank(series: string): number {
  return series === "randomized" ? 0 : series === "universal" ? 1 : 2;
}
