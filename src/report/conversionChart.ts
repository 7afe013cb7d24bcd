import * as Plot from "@observablehq/plot";
import { chartTheme } from "./chartTheme.ts";
import { checkRows } from "./checkRows.ts";
import { renderPlot } from "./renderPlot.ts";

/**
 * One shop-day: visitors from the signals joined with that day's sales.
 *
 * @example
 * const row: ConversionRow = { shop: "Gangnam", date: "2024-05-01", visitors: 420, receipts: 57, amount: 1_830_000 };
 */
export interface ConversionRow {
  /** Shop name or id. */
  readonly shop: string;
  /** Day, YYYY-MM-DD in shop time. */
  readonly date: string;
  /** Unique visitors of the day. */
  readonly visitors: number;
  /** Receipts (sales quantity) of the day. */
  readonly receipts: number;
  /** Sales amount of the day, in `currency`; adds "amount per visitor" to the labels. */
  readonly amount?: number;
}

/**
 * Options of {@link conversionChart}.
 *
 * @example
 * const options: ConversionChartOptions = { currency: "EUR" };
 */
export interface ConversionChartOptions {
  /** @default "Conversion per shop and day" */
  readonly title?: string;
  /** @default a line defining conversion */
  readonly subtitle?: string;
  /** Line under the chart. @default none */
  readonly note?: string;
  /** ISO 4217 code of `amount`. @default "KRW" */
  readonly currency?: string;
}

/**
 * Defaults of {@link ConversionChartOptions}.
 *
 * @example
 * defaultConversionChart.currency; // "KRW"
 */
export const defaultConversionChart = Object.freeze({ title: "Conversion per shop and day", currency: "KRW" });

/**
 * Horizontal bars of conversion (receipts ÷ visitors, in %) per shop and day, each labelled with
 * the counts behind it and, when amounts are given, the amount per visitor: what the footfall
 * was worth. Days with no visitors show no bar. Returns a standalone SVG string.
 *
 * @example
 * conversionChart([
 *   { shop: "Gangnam", date: "2024-05-01", visitors: 420, receipts: 57, amount: 1_830_000 },
 *   { shop: "Hongdae", date: "2024-05-01", visitors: 380, receipts: 31, amount: 905_000 },
 * ]);
 */
export function conversionChart(rows: readonly ConversionRow[], options: ConversionChartOptions = {}): string {
  checkRows("conversionChart", rows, ["visitors", "receipts", "amount"], true);
  const currency = options.currency ?? defaultConversionChart.currency;
  let money: Intl.NumberFormat;
  try {
    money = new Intl.NumberFormat("en", { style: "currency", currency, maximumFractionDigits: currency === "KRW" ? 0 : 2 });
  } catch {
    throw new RangeError(`conversionChart: currency must be an ISO 4217 code, got ${currency}`);
  }
  const oneDay = new Set(rows.map((r) => r.date)).size <= 1;
  const data = rows.map((r) => ({
    key: oneDay ? r.shop : `${r.shop} · ${r.date}`,
    conversion: r.visitors > 0 ? r.receipts / r.visitors : 0,
    label:
      r.visitors > 0
        ? `${((100 * r.receipts) / r.visitors).toFixed(1)} %  (${r.receipts} / ${r.visitors})` +
          (r.amount === undefined ? "" : `  ${money.format(r.amount / r.visitors)} per visitor`)
        : `no visitors  (${r.receipts} receipts)`,
  }));
  const keys = data.map((d) => d.key);
  const marginLeft = Math.min(Math.round(chartTheme.width * 0.4), 28 + 7.5 * Math.max(4, ...keys.map((k) => k.length)));
  // Widen the x domain until every bar's label fits to its right: bar_i + label_i ≤ plot width.
  const plotWidth = chartTheme.width - marginLeft - 24;
  let max = 0.05;
  for (const d of data) {
    const labelPx = 12 + d.label.length * chartTheme.fontSize * 0.56;
    max = Math.max(max, d.conversion * (plotWidth / Math.max(plotWidth * 0.25, plotWidth - labelPx)));
  }
  return renderPlot(
    {
      title: options.title ?? defaultConversionChart.title,
      subtitle:
        options.subtitle ??
        `Receipts ÷ unique visitors${oneDay && rows.length > 0 ? `, ${(rows[0] as ConversionRow).date}` : ""}; labels: conversion (receipts / visitors)${rows.some((r) => r.amount !== undefined) ? " and amount per visitor" : ""}`,
      ...(options.note === undefined ? {} : { note: options.note }),
    },
    {
      height: 76 + 36 * Math.max(1, keys.length),
      marginLeft,
      marginRight: 24,
      x: { domain: [0, max], label: "conversion (%)", grid: true, tickFormat: (v: number) => `${Math.round(v * 100)}` },
      y: { domain: keys, label: null, tickSize: 0, padding: 0.2 },
      marks: [
        Plot.barX(data, { y: "key", x: "conversion", fill: chartTheme.color.sales }),
        Plot.text(data, { y: "key", x: "conversion", text: "label", textAnchor: "start", dx: 6, fill: chartTheme.ink, ...chartTheme.halo }),
        Plot.ruleX([0], { stroke: chartTheme.ink }),
      ],
    },
  );
}
