import * as Plot from "@observablehq/plot";
import { conversionRate } from "../kernels/visits/conversionRate.ts";
import { chartTheme } from "./chartTheme.ts";
import { checkRows } from "./checkRows.ts";
import { renderPlot } from "./renderPlot.ts";
import { linesWidth, wrapText } from "./textWidth.ts";

/** Space between a bar's end and its label, px. */
const LABEL_GAP = 6;
/** Clear space kept between a label's end and the picture's right edge, px (as the title's left). */
const EDGE = 12;

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
 * the counts behind it and, when amounts are given, the amount per visitor on a second line:
 * what the footfall was worth. The x axis reaches far enough that every label fits inside the
 * picture; long shop names wrap. Conversion is {@link conversionRate}'s: a day with no visitors
 * has none (not 0 %), so it shows no bar and the label "n/a". Returns a standalone SVG string.
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
  const width = chartTheme.width;
  // Long shop names wrap onto more lines instead of running off the left edge.
  const wrapKey = (key: string): string => wrapText(key, width * 0.35 - 20);
  const data = rows.map((r) => {
    const rate = conversionRate(r.receipts, r.visitors);
    return {
      key: wrapKey(oneDay ? r.shop : `${r.shop} · ${r.date}`),
      // Not available → no bar (filtered out below), while the label still sits at 0.
      conversion: rate,
      at: rate ?? 0,
      // The amount goes on a second line: one long line is what ran past the right edge.
      label:
        rate !== undefined
          ? `${(100 * rate).toFixed(1)} %  (${r.receipts} / ${r.visitors})` +
            (r.amount === undefined ? "" : `\n${money.format(r.amount / r.visitors)} per visitor`)
          : `n/a: no visitors  (${r.receipts} receipts)`,
    };
  });
  const keys = [...new Set(data.map((d) => d.key))];
  const lines = Math.max(1, ...data.map((d) => d.key.split("\n").length), ...data.map((d) => d.label.split("\n").length));
  const marginLeft = Math.max(60, Math.ceil(20 + Math.max(0, ...keys.map((k) => linesWidth(k)))));
  const marginRight = 24;
  const plotWidth = width - marginLeft - marginRight;
  // Labels may reach into the right margin, not past the picture's edge: each bar is short
  // enough that bar + gap + label ≤ room, which sets the upper end of the x domain.
  const room = width - marginLeft - EDGE;
  let max = 0.05;
  for (const d of data) {
    const free = Math.max(room * 0.1, room - LABEL_GAP - linesWidth(d.label));
    max = Math.max(max, (d.at * plotWidth) / free);
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
      height: 76 + (22 + 14 * lines) * Math.max(1, keys.length),
      marginLeft,
      marginRight,
      x: { domain: [0, max], label: "conversion (%)", grid: true, tickFormat: (v: number) => `${Math.round(v * 100)}` },
      y: { domain: keys, label: null, tickSize: 0, padding: 0.2 },
      marks: [
        Plot.barX(
          data.filter((d) => d.conversion !== undefined),
          { y: "key", x: "conversion", fill: chartTheme.color.sales },
        ),
        Plot.text(data, { y: "key", x: "at", text: "label", textAnchor: "start", dx: LABEL_GAP, fill: chartTheme.ink, ...chartTheme.halo }),
        Plot.ruleX([0], { stroke: chartTheme.ink }),
      ],
    },
  );
}
