import * as Plot from "@observablehq/plot";
import { chartTheme } from "./chartTheme.ts";
import { checkRows } from "./checkRows.ts";
import { renderPlot } from "./renderPlot.ts";

/**
 * The nearest sensor to one device in one time slice.
 *
 * @example
 * const p: TimelinePoint = { time: 1_714_550_400_000, sensor: "entrance" };
 */
export interface TimelinePoint {
  /** Start of the slice, epoch milliseconds. */
  readonly time: number;
  /** Nearest sensor in the slice (name or MAC). */
  readonly sensor: string;
}

/**
 * Options of {@link visitTimelineChart}.
 *
 * @example
 * const options: VisitTimelineChartOptions = { sensors: ["entrance", "shelf", "counter"] };
 */
export interface VisitTimelineChartOptions {
  /** @default "One visit: nearest sensor over time" */
  readonly title?: string;
  /** @default a line with the visit's length */
  readonly subtitle?: string;
  /** Line under the chart. @default none */
  readonly note?: string;
  /** Sensor order on the y axis, e.g. entrance to back. @default order of first appearance */
  readonly sensors?: readonly string[];
}

/**
 * Defaults of {@link VisitTimelineChartOptions}.
 *
 * @example
 * defaultVisitTimelineChart.title; // "One visit: nearest sensor over time"
 */
export const defaultVisitTimelineChart = Object.freeze({ title: "One visit: nearest sensor over time" });

// Above this many slices the per-slice dots are left out.
const MAX_DOTS = 60;

/**
 * Step chart of one visit's nearest sensor per time slice against minutes since the visit's
 * first slice (so no time zone is involved): the path a shopper took through the shop.
 * Returns a standalone SVG string.
 *
 * @example
 * const t0 = Date.UTC(2024, 4, 1, 10);
 * visitTimelineChart([
 *   { time: t0, sensor: "entrance" },
 *   { time: t0 + 60_000, sensor: "shelf" },
 *   { time: t0 + 240_000, sensor: "counter" },
 * ]);
 */
export function visitTimelineChart(points: readonly TimelinePoint[], options: VisitTimelineChartOptions = {}): string {
  checkRows("visitTimelineChart", points, ["time"], false);
  const sorted = [...points].sort((a, b) => a.time - b.time);
  const t0 = sorted.length > 0 ? (sorted[0] as TimelinePoint).time : 0;
  const data = sorted.map((p) => ({ minute: (p.time - t0) / 60_000, sensor: p.sensor }));
  const sensors = [...(options.sensors ?? [])];
  for (const p of sorted) if (!sensors.includes(p.sensor)) sensors.push(p.sensor);
  const span = data.length > 0 ? (data[data.length - 1] as { minute: number }).minute : 0;
  return renderPlot(
    {
      title: options.title ?? defaultVisitTimelineChart.title,
      subtitle: options.subtitle ?? `${data.length} time slices over ${span.toFixed(1)} min; each step is a move to another sensor`,
      ...(options.note === undefined ? {} : { note: options.note }),
    },
    {
      height: 76 + 40 * Math.max(2, sensors.length),
      marginLeft: Math.min(220, 28 + 7.5 * Math.max(4, ...sensors.map((s) => s.length))),
      x: { label: "minutes since the visit started", grid: true, nice: true },
      y: { domain: sensors, label: null },
      marks: [
        Plot.line(data, { x: "minute", y: "sensor", curve: "step-after", stroke: chartTheme.color.visitors, strokeWidth: 2 }),
        // Dots mark the slices while they can be told apart; on long visits they would only blur the steps.
        ...(data.length <= MAX_DOTS ? [Plot.dot(data, { x: "minute", y: "sensor", r: 3, fill: chartTheme.color.visitors, stroke: chartTheme.background })] : []),
      ],
    },
  );
}
