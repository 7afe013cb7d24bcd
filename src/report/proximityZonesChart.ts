import * as Plot from "@observablehq/plot";
import { chartTheme } from "./chartTheme.ts";
import { checkRows } from "./checkRows.ts";
import { renderPlot, type LegendItem } from "./renderPlot.ts";

/**
 * Time that devices spent in one proximity zone of one sensor, summed over devices.
 *
 * @example
 * const row: ZoneTimeRow = { sensor: "entrance", zone: "near", ms: 5_400_000 };
 */
export interface ZoneTimeRow {
  /** Sensor name or MAC. */
  readonly sensor: string;
  /** Zone name: "immediate", "near" and "far" get fixed colours in that order; others follow. */
  readonly zone: string;
  /** Device-time in the zone, milliseconds (two devices for one minute = 120 000). */
  readonly ms: number;
}

/**
 * Options of {@link proximityZonesChart}.
 *
 * @example
 * const options: ProximityZonesChartOptions = { title: "Where people stand" };
 */
export interface ProximityZonesChartOptions {
  /** @default "Proximity zones per sensor" */
  readonly title?: string;
  /** @default a line explaining the unit */
  readonly subtitle?: string;
  /** Line under the chart. @default none */
  readonly note?: string;
}

/**
 * Defaults of {@link ProximityZonesChartOptions}.
 *
 * @example
 * defaultProximityZonesChart.title; // "Proximity zones per sensor"
 */
export const defaultProximityZonesChart = Object.freeze({ title: "Proximity zones per sensor" });

const KNOWN_ZONES = ["immediate", "near", "far"] as const;

/**
 * Horizontal stacked bars, one per sensor, of device-minutes spent in each proximity zone
 * (immediate / near / far, nearest darkest): which spots of the shop hold people, and how close
 * they come. Returns a standalone SVG string.
 *
 * @example
 * proximityZonesChart([
 *   { sensor: "entrance", zone: "immediate", ms: 600_000 },
 *   { sensor: "entrance", zone: "far", ms: 3_000_000 },
 *   { sensor: "counter", zone: "near", ms: 1_200_000 },
 * ]);
 */
export function proximityZonesChart(rows: readonly ZoneTimeRow[], options: ProximityZonesChartOptions = {}): string {
  checkRows("proximityZonesChart", rows, ["ms"], true);
  const sensors: string[] = [];
  const extraZones: string[] = [];
  for (const r of rows) {
    if (!sensors.includes(r.sensor)) sensors.push(r.sensor);
    if (!(KNOWN_ZONES as readonly string[]).includes(r.zone) && !extraZones.includes(r.zone)) extraZones.push(r.zone);
  }
  const zones = [...KNOWN_ZONES.filter((z) => rows.some((r) => r.zone === z)), ...extraZones];
  const colors = zones.map((z, i) =>
    (KNOWN_ZONES as readonly string[]).includes(z)
      ? chartTheme.color.zones[z as (typeof KNOWN_ZONES)[number]]
      : (chartTheme.color.series[i % chartTheme.color.series.length] as string),
  );
  const data = rows.map((r) => ({ sensor: r.sensor, zone: r.zone, minutes: r.ms / 60_000 }));
  const legend: LegendItem[] = zones.map((z, i) => ({ label: z, color: colors[i] as string }));
  const totals = sensors.map((s) => ({ sensor: s, minutes: data.filter((d) => d.sensor === s).reduce((a, d) => a + d.minutes, 0) }));
  return renderPlot(
    {
      title: options.title ?? defaultProximityZonesChart.title,
      subtitle: options.subtitle ?? "Device-minutes spent in each zone around each sensor (nearest zone darkest)",
      legend,
      ...(options.note === undefined ? {} : { note: options.note }),
    },
    {
      height: 76 + 32 * Math.max(1, sensors.length),
      marginLeft: Math.min(220, 28 + 7.5 * Math.max(4, ...sensors.map((s) => s.length))),
      marginRight: 70,
      x: { grid: true, label: "device-minutes", nice: true },
      y: { domain: sensors, label: null, tickSize: 0, padding: 0.2 },
      color: { domain: zones, range: colors },
      marks: [
        Plot.barX(data, { y: "sensor", x: "minutes", fill: "zone", order: zones, title: (d: { zone: string; minutes: number }) => `${d.zone}: ${d.minutes.toFixed(1)} min` }),
        Plot.text(totals, { y: "sensor", x: "minutes", text: (d: { minutes: number }) => `${Math.round(d.minutes)} min`, textAnchor: "start", dx: 6, fill: chartTheme.ink, ...chartTheme.halo }),
        Plot.ruleX([0], { stroke: chartTheme.ink }),
      ],
    },
  );
}
