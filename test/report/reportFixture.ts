import { expect } from "vitest";
import type { HtmlReportInput, ReportShop } from "../../src/report/htmlReport.ts";

/** A plausible two-shop day for report tests (numbers made up, internally consistent). */
export function sampleReportInput(overrides: Partial<HtmlReportInput> = {}): HtmlReportInput {
  const shop = (id: number, name: string, scale: number): ReportShop => {
    const hourly = [];
    for (let h = 9; h <= 22; h++) {
      const peak = Math.exp(-0.5 * ((h - 12.75) / 1.1) ** 2) + 1.3 * Math.exp(-0.5 * ((h - 18.75) / 1.6) ** 2);
      const open = h >= 10 && h < 22;
      hourly.push({ hour: h, visitors: open ? Math.round(scale * (8 + 40 * peak)) : 0, passersBy: Math.round(scale * (60 + 420 * peak)), sales: open ? Math.round(scale * (4 + 18 * peak)) : 0 });
    }
    const visitors = hourly.reduce((s, r) => s + r.visitors, 0);
    const passersBy = hourly.reduce((s, r) => s + r.passersBy, 0);
    const receipts = hourly.reduce((s, r) => s + (r.sales ?? 0), 0);
    return {
      id,
      name,
      visitors,
      visits: visitors + 7,
      passersBy,
      uniqueDevices: visitors + passersBy,
      captureRate: visitors / (visitors + passersBy),
      medianDwellMs: 14.5 * 60_000 * scale,
      dwellBuckets: [
        { bucket: "<5 min", count: Math.round(visitors * 0.12) },
        { bucket: "5–20 min", count: Math.round(visitors * 0.5) },
        { bucket: "20–60 min", count: Math.round(visitors * 0.3) },
        { bucket: "1–6 h", count: Math.round(visitors * 0.08) },
        { bucket: "≥6 h", count: 0 },
      ],
      receipts,
      amount: receipts * 9_800,
      hourly,
      zones: [
        { sensor: "b8:27:eb:00:00:01", zone: "immediate", ms: 3_600_000 * scale },
        { sensor: "b8:27:eb:00:00:01", zone: "near", ms: 20_000_000 * scale },
        { sensor: "b8:27:eb:00:00:01", zone: "far", ms: 30_000_000 * scale },
        { sensor: "b8:27:eb:00:00:02", zone: "near", ms: 12_000_000 * scale },
        { sensor: "b8:27:eb:00:00:02", zone: "far", ms: 41_000_000 * scale },
      ],
      devices: { universal: Math.round((visitors + passersBy) * 0.55), randomized: Math.round((visitors + passersBy) * 0.45) },
      accuracy: { truthVisitors: Math.round(visitors * 0.97), truthMedianDwellMs: 15 * 60_000 * scale },
    };
  };
  return {
    date: "2026-11-16",
    timeZone: "Asia/Seoul",
    shops: [shop(101, "Cafe Mori Gangnam", 1), shop(102, "Hanbit Apparel Seongsu", 1.3)],
    signals: 412_345,
    sensors: 6,
    accuracy: { totalCountError: 0.03, medianAbsDwellErrorMs: 38_000, visitorF1: 0.96, passerbyF1: 0.99 },
    facts: [
      { label: "seed", value: "1" },
      { label: "speed", value: "900×" },
    ],
    ...overrides,
  };
}

/** Everything that would make a page load something from elsewhere. */
export function expectSelfContained(html: string): void {
  expect(html).not.toMatch(/https?:|\/\/[a-z0-9]/i);
  expect(html).not.toMatch(/<(script|link|img|iframe|object|embed|image|foreignObject)\b/i);
  expect(html).not.toMatch(/@import|@font-face|url\(/i);
  expect(html).not.toMatch(/\s(src|href|xlink:href)\s*=\s*["'](?!#)/i);
}

