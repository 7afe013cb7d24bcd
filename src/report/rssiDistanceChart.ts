import * as Plot from "@observablehq/plot";
import { chartTheme } from "./chartTheme.ts";
import { checkRows } from "./checkRows.ts";
import { renderPlot, type LegendItem } from "./renderPlot.ts";

/**
 * One survey sample: RSSI measured at a known distance from a sensor.
 *
 * @example
 * const s: RssiSample = { distanceM: 2.5, rssi: -58 };
 */
export interface RssiSample {
  /** Distance from the sensor, metres (> 0). */
  readonly distanceM: number;
  /** Received signal strength, dBm. */
  readonly rssi: number;
}

/**
 * A log-distance model `rssi = rssiAt1m − 10·exponent·log10(d)`, e.g. the result of `fitPathLoss`.
 *
 * @example
 * const fit: PathLossCurve = { rssiAt1m: -45, exponent: 2.7 };
 */
export interface PathLossCurve {
  /** RSSI at 1 m, dBm. */
  readonly rssiAt1m: number;
  /** Path-loss exponent n (≈ 2 in free space, 2.5–4 indoors). */
  readonly exponent: number;
}

/**
 * Options of {@link rssiDistanceChart}.
 *
 * @example
 * const options: RssiDistanceChartOptions = { zones: { immediateM: 1, nearM: 4 } };
 */
export interface RssiDistanceChartOptions {
  /** @default "RSSI against distance" */
  readonly title?: string;
  /** @default a line naming the model */
  readonly subtitle?: string;
  /** Line under the chart. @default none */
  readonly note?: string;
  /** Zone bounds to draw as dashed vertical rules, metres. @default none */
  readonly zones?: { readonly immediateM: number; readonly nearM: number };
  /** Height of the plot with its axes, px (title and legend come on top). @default 320 */
  readonly height?: number;
}

/**
 * Defaults of {@link RssiDistanceChartOptions}.
 *
 * @example
 * defaultRssiDistanceChart.height; // 320
 */
export const defaultRssiDistanceChart = Object.freeze({ title: "RSSI against distance", height: 320 });

/**
 * Scatter of survey samples (RSSI in dBm against distance in metres, log scale, where the
 * log-distance model is a straight line) with the fitted path-loss curve and optional zone
 * bounds: how well one calibration explains the readings, and how wide their spread is.
 * Returns a standalone SVG string.
 *
 * @example
 * rssiDistanceChart(
 *   [{ distanceM: 1, rssi: -46 }, { distanceM: 3, rssi: -58 }, { distanceM: 9, rssi: -71 }],
 *   { rssiAt1m: -45, exponent: 2.7 },
 * );
 */
export function rssiDistanceChart(samples: readonly RssiSample[], fit?: PathLossCurve, options: RssiDistanceChartOptions = {}): string {
  checkRows("rssiDistanceChart", samples, ["distanceM", "rssi"], false);
  for (let i = 0; i < samples.length; i++) {
    if (!((samples[i] as RssiSample).distanceM > 0)) throw new RangeError(`rssiDistanceChart: sample ${i}: distanceM must be > 0 m`);
  }
  if (fit !== undefined && !(Number.isFinite(fit.rssiAt1m) && Number.isFinite(fit.exponent))) {
    throw new RangeError("rssiDistanceChart: fit.rssiAt1m and fit.exponent must be finite numbers");
  }
  const height = options.height ?? defaultRssiDistanceChart.height;
  let minD = Infinity;
  let maxD = -Infinity;
  for (const s of samples) {
    if (s.distanceM < minD) minD = s.distanceM;
    if (s.distanceM > maxD) maxD = s.distanceM;
  }
  if (samples.length === 0) {
    minD = 0.5;
    maxD = 20;
  }
  const curve: { distanceM: number; rssi: number }[] = [];
  if (fit !== undefined) {
    // Log-spaced points so the curve is smooth across the whole log axis.
    const a = Math.log10(minD);
    const b = Math.log10(maxD);
    for (let i = 0; i <= 60; i++) {
      const d = 10 ** (a + ((b - a) * i) / 60);
      curve.push({ distanceM: d, rssi: fit.rssiAt1m - 10 * fit.exponent * Math.log10(d) });
    }
  }
  const legend: LegendItem[] = [{ label: `survey samples (${samples.length})`, color: chartTheme.color.estimate, shape: "circle" }];
  if (fit !== undefined) {
    legend.push({ label: `fit: ${fit.rssiAt1m.toFixed(1)} dBm at 1 m, exponent n = ${fit.exponent.toFixed(2)}`, color: chartTheme.color.fit, shape: "line" });
  }
  const zoneRules =
    options.zones === undefined
      ? []
      : [
          { m: options.zones.immediateM, label: "immediate | near" },
          { m: options.zones.nearM, label: "near | far" },
        ].filter((z) => z.m >= minD && z.m <= maxD);
  return renderPlot(
    {
      title: options.title ?? defaultRssiDistanceChart.title,
      subtitle: options.subtitle ?? "Log-distance path loss: rssi = rssiAt1m − 10·n·log10(d); a straight line on this log axis",
      legend,
      ...(options.note === undefined ? {} : { note: options.note }),
    },
    {
      height,
      x: { type: "log", label: "distance from sensor (m)", grid: true, tickFormat: (d: number) => (d >= 1 ? `${d}` : d.toFixed(1)) },
      y: { label: "RSSI (dBm)", grid: true, nice: true },
      marks: [
        ...zoneRules.map((z) => Plot.ruleX([z.m], { stroke: chartTheme.muted, strokeDasharray: "4,3" })),
        ...zoneRules.map((z) => Plot.text([z], { x: "m", frameAnchor: "top", text: "label", dy: 4, lineAnchor: "top", fill: chartTheme.muted, ...chartTheme.halo })),
        Plot.dot(samples, { x: "distanceM", y: "rssi", r: 2.5, fill: chartTheme.color.estimate, fillOpacity: 0.45 }),
        ...(fit === undefined ? [] : [Plot.line(curve, { x: "distanceM", y: "rssi", stroke: chartTheme.color.fit, strokeWidth: 2.5 })]),
      ],
    },
  );
}
