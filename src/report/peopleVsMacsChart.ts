import * as Plot from "@observablehq/plot";
import { chartTheme } from "./chartTheme.ts";
import { checkRows } from "./checkRows.ts";
import { renderPlot, type LegendItem } from "./renderPlot.ts";
import { linesWidth, wrapText } from "./textWidth.ts";

/**
 * One figure counted two ways, e.g. one shop-day's visitors: people (the estimate, with its
 * interval when it has one) and MAC addresses (the MAC-level count), and the truth when known.
 *
 * @example
 * const row: PeopleVsMacsRow = { label: "Gangnam 11-16", people: 518, peopleLow: 362, peopleHigh: 675, macs: 972, truth: 560 };
 */
export interface PeopleVsMacsRow {
  /** What is counted, e.g. "Gangnam 11-16". */
  readonly label: string;
  /** Estimated people. */
  readonly people: number;
  /** Lower end of the people estimate's interval; no interval is drawn without both ends. */
  readonly peopleLow?: number;
  /** Upper end of the people estimate's interval; `Infinity` when nothing bounds it (drawn to the axis end, shown as "?"). */
  readonly peopleHigh?: number;
  /** The same figure counted as MAC addresses. */
  readonly macs: number;
  /** The true number of people, when known. */
  readonly truth?: number;
}

/**
 * Options of {@link peopleVsMacsChart}.
 *
 * @example
 * const options: PeopleVsMacsChartOptions = { title: "Visitors: people vs MAC addresses", what: "visitors" };
 */
export interface PeopleVsMacsChartOptions {
  /** @default "People, not MAC addresses" */
  readonly title?: string;
  /** @default a line saying what the bar, dot, whisker and tick are */
  readonly subtitle?: string;
  /** Line under the chart. @default none */
  readonly note?: string;
  /** What is counted, for the axis and subtitle. @default "visitors" */
  readonly what?: string;
  /** Level of the intervals, for the legend. @default 0.9 */
  readonly level?: number;
}

/**
 * Defaults of {@link PeopleVsMacsChartOptions}.
 *
 * @example
 * defaultPeopleVsMacsChart.what; // "visitors"
 */
export const defaultPeopleVsMacsChart = Object.freeze({ title: "People, not MAC addresses", what: "visitors", level: 0.9 });

/**
 * Per row a pale bar for the MAC-level count, a dot for the people estimate with its interval
 * as a whisker, and a dark tick for the truth when known, each row labelled with the numbers:
 * how far counting addresses is from counting people when phones rotate their MACs, and whether
 * the estimate's interval holds the truth. Returns a standalone SVG string.
 *
 * @example
 * peopleVsMacsChart([
 *   { label: "Gangnam", people: 518, peopleLow: 362, peopleHigh: 675, macs: 972, truth: 560 },
 *   { label: "Itaewon", people: 402, peopleLow: 330, peopleHigh: 474, macs: 584, truth: 420 },
 * ]);
 */
export function peopleVsMacsChart(rows: readonly PeopleVsMacsRow[], options: PeopleVsMacsChartOptions = {}): string {
  checkRows("peopleVsMacsChart", rows, ["people", "peopleLow", "macs", "truth"], true);
  rows.forEach((r, i) => {
    const high = r.peopleHigh;
    if (high !== undefined && (typeof high !== "number" || !(high >= 0))) throw new RangeError(`peopleVsMacsChart: row ${i}: peopleHigh must be a non-negative number or Infinity, got ${String(high)}`);
  });
  const what = options.what ?? defaultPeopleVsMacsChart.what;
  const level = options.level ?? defaultPeopleVsMacsChart.level;
  const int = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString("en") : "?");
  const rowsMax = Math.max(1, ...rows.flatMap((r) => [r.macs, r.people, Number.isFinite(r.peopleHigh) ? r.peopleHigh! : 0, r.truth ?? 0]));
  const data = rows.map((r) => {
    const interval = r.peopleLow !== undefined && r.peopleHigh !== undefined;
    return {
      ...r,
      // An interval open above runs to the end of the axis.
      ...(interval && !Number.isFinite(r.peopleHigh) ? { peopleHigh: rowsMax * 1.08 } : {}),
      label: wrapText(r.label, chartTheme.width * 0.3 - 20),
      interval,
      text:
        `people ${int(r.people)}${interval ? ` [${int(r.peopleLow!)}–${int(r.peopleHigh!)}]` : ""} · MACs ${int(r.macs)}` +
        `${r.truth === undefined ? "" : ` · truth ${int(r.truth)}`}`,
    };
  });
  const labels = [...new Set(data.map((d) => d.label))];
  const lines = Math.max(1, ...labels.map((l) => l.split("\n").length));
  const marginLeft = Math.max(60, Math.ceil(20 + Math.max(0, ...labels.map((l) => linesWidth(l)))));
  const hasTruth = data.some((d) => d.truth !== undefined);
  const max = rowsMax;
  const legend: LegendItem[] = [
    { label: `MAC addresses`, color: MAC_FILL },
    { label: `people (estimate, ${Math.round(level * 100)} % interval)`, color: chartTheme.color.visitors, shape: "circle" },
  ];
  if (hasTruth) legend.push({ label: "people (truth)", color: chartTheme.ink, shape: "line" });
  return renderPlot(
    {
      title: options.title ?? defaultPeopleVsMacsChart.title,
      subtitle: options.subtitle ?? `${cap(what)} counted as people (estimate) and as MAC addresses (one rotating phone can be many)`,
      legend,
      ...(options.note === undefined ? {} : { note: options.note }),
    },
    {
      // Each row holds its label line above the marks.
      height: 70 + (44 + 14 * lines) * Math.max(1, labels.length),
      marginLeft,
      marginRight: 24,
      x: { domain: [0, max * 1.08], label: what, grid: true, nice: true },
      y: { domain: labels, label: null, tickSize: 0, padding: 0.45 },
      marks: [
        Plot.barX(data, { y: "label", x: "macs", fill: MAC_FILL }),
        Plot.ruleX([0], { stroke: chartTheme.ink }),
        Plot.ruleY(
          data.filter((d) => d.interval),
          { y: "label", x1: "peopleLow", x2: "peopleHigh", stroke: chartTheme.color.visitors, strokeWidth: 3 },
        ),
        ...(hasTruth ? [Plot.tickX(data.filter((d) => d.truth !== undefined), { y: "label", x: "truth", stroke: chartTheme.ink, strokeWidth: 2.5 })] : []),
        Plot.dot(data, { y: "label", x: "people", r: 5, fill: chartTheme.color.visitors, stroke: chartTheme.background }),
        // The numbers above each row, from the axis: readable whatever the bars' lengths.
        Plot.text(data, { y: "label", x: 0, text: "text", textAnchor: "start", dx: 4, dy: -(10 + 7 * lines), fill: chartTheme.ink, ...chartTheme.halo }),
      ],
    },
  );
}

// MAC addresses in the passers-by grey-blue, lighter: the count people should not be read from.
const MAC_FILL = "#d5dce4";

const cap = (s: string): string => (s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1));
