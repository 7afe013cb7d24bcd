import { describe, expect, it } from "vitest";
import { linesWidth, textWidth, wrapText } from "../../src/report/textWidth.ts";

// Widths measured with getComputedTextLength() in headless Chromium at 12 px, where the house
// font stack falls back to DejaVu Sans (the widest of the usual fallbacks). SVG collapses
// runs of spaces, so measured strings have single spaces.
const MEASURED: readonly [string, number][] = [
  ["5200 vs 4300 (+20.9 %)", 147.2],
  ["0123456789", 76.4],
  ["abcdefghijklmnopqrstuvwxyz", 175.8],
  ["ABCDEFGHIJKLMNOPQRSTUVWXYZ", 209.7],
  ["Cafe Mori Gangnam · visitors", 174.2],
  ["₩41,105 per visitor", 118.4],
  ["Receipts ÷ unique visitors, 2026-11-16; labels: conversion (receipts / visitors) and amount per visitor", 608],
];

describe("textWidth", () => {
  it("never underestimates what a browser draws, and is not far off", () => {
    for (const [text, px] of MEASURED) {
      expect(textWidth(text), text).toBeGreaterThanOrEqual(px);
      expect(textWidth(text), text).toBeLessThan(px * 1.15);
    }
  });

  it("scales with the font size; multi-line text is as wide as its widest line", () => {
    expect(textWidth("abc", 24)).toBeCloseTo(2 * textWidth("abc", 12), 9);
    expect(linesWidth("ab\nabcdef\nabc")).toBe(textWidth("abcdef"));
  });
});

describe("wrapText", () => {
  it("returns text that fits unchanged", () => {
    expect(wrapText("visitors", 200)).toBe("visitors");
  });

  it("breaks at spaces into lines that fit, keeping ' ·' at a line's end and every word", () => {
    const label = "Cafe Mori Jamsil Lotte World Mall · median dwell (min)";
    const wrapped = wrapText(label, 150);
    const lines = wrapped.split("\n");
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(textWidth(line)).toBeLessThanOrEqual(150);
      expect(line.startsWith("·")).toBe(false);
    }
    expect(lines.join(" ")).toBe(label);
  });

  it("cuts a word longer than a line", () => {
    const lines = wrapText("Supercalifragilisticexpialidocious", 60).split("\n");
    expect(lines.join("")).toBe("Supercalifragilisticexpialidocious");
    for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(60);
  });

  it("rejects a width ≤ 0", () => {
    expect(() => wrapText("a", 0)).toThrow(RangeError);
  });
});
