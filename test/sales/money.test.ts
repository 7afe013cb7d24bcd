import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { formatMinorUnits, minorToMajor, parseMinorUnits, withoutCurrencyMarks } from "../../src/sales/money.ts";

describe("money", () => {
  test("decimal strings become exact minor units", () => {
    expect(parseMinorUnits("1234.5", 2)).toBe(123450);
    expect(parseMinorUnits("1234.50", 2)).toBe(123450);
    expect(parseMinorUnits("-3000", 0)).toBe(-3000);
    expect(parseMinorUnits("+0.001", 3)).toBe(1);
    expect(parseMinorUnits(".5", 2)).toBe(50);
    expect(parseMinorUnits("12000.00", 0)).toBe(12000);
    expect(parseMinorUnits("1.2e3", 0)).toBe(1200);
    expect(parseMinorUnits(0.1, 2)).toBe(10);
    expect(parseMinorUnits(19.99, 2)).toBe(1999);
    expect(parseMinorUnits(" 42 ", 0)).toBe(42);
  });

  test("more decimals than the currency has are refused, not rounded", () => {
    expect(parseMinorUnits("10.5", 0)).toMatch(/more decimals than the currency allows \(0\)/);
    expect(parseMinorUnits("1.2345", 2)).toMatch(/more decimals/);
    expect(parseMinorUnits("0.105", 2)).toMatch(/more decimals/);
    expect(parseMinorUnits(0.005, 2)).toMatch(/more decimals/);
  });

  test("thousands grouped with commas are read where they cannot be a decimal comma, refused where they could", () => {
    expect(parseMinorUnits("1,250,000", 0)).toBe(1_250_000);
    expect(parseMinorUnits("-1,000", 0)).toBe(-1000);
    expect(parseMinorUnits("1,250.50", 2)).toBe(125_050);
    expect(parseMinorUnits("12,345,678.9", 2)).toBe(1_234_567_890);
    expect(parseMinorUnits("1,250.5", 0)).toMatch(/more decimals/);
    // "1,000" of a currency with cents: a thousand, or one with a decimal comma?
    expect(parseMinorUnits("1,000", 2)).toMatch(/not a number: a thousands separator or a decimal comma\? Write 1000 or 1,000\.00/);
    // Not grouping: refused as before.
    for (const bad of ["1,00", "12,50", "1,0000", ",100", "1,,000", "1.000,50", "0,100"]) expect(parseMinorUnits(bad, 0)).toMatch(/not a number/);
    // Points: two groups or more are grouping; one point before three digits could be either.
    expect(parseMinorUnits("1.250.000", 0)).toBe(1_250_000);
    expect(parseMinorUnits("-12.000.000", 2)).toBe(-1_200_000_000);
    expect(parseMinorUnits("1.000", 0)).toMatch(/ambiguous: 1000 with a grouping point, or 1 with three decimals\? Write 1000 or 1$/);
    expect(parseMinorUnits("1.250", 2)).toMatch(/ambiguous: 1250 .* or 1\.25 /);
    expect(parseMinorUnits("1.250", 3)).toBe(1250); // a currency with three decimals (BHD): decimals
    expect(parseMinorUnits("12000.000", 0)).toBe(12_000); // four digits before the point: decimals
    // Any integer written grouped reads as itself.
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (n) => parseMinorUnits(n.toLocaleString("en-US"), 0) === n));
    fc.assert(fc.property(fc.integer({ min: 1_000_000, max: 1e12 }), (n) => parseMinorUnits(n.toLocaleString("de-DE"), 0) === n));
  });

  test("with its currency, the marks a spreadsheet writes around an amount are dropped: code, symbol, 원", () => {
    for (const text of ["₩1,250,000", "￦1,250,000", "1,250,000원", "1,250,000 원", "KRW 1,250,000", "1250000 KRW", " ₩ 1,250,000 "]) {
      expect(parseMinorUnits(text, 0, "KRW")).toBe(1_250_000);
    }
    expect(parseMinorUnits("-₩5,000", 0, "KRW")).toBe(-5000);
    expect(parseMinorUnits("₩-5,000", 0, "KRW")).toBe(-5000);
    expect(parseMinorUnits("$19.99", 2, "USD")).toBe(1999);
    expect(parseMinorUnits("-$1,250.50", 2, "USD")).toBe(-125_050);
    expect(parseMinorUnits("€5", 2, "EUR")).toBe(500);
    // Another currency's marks, or marks without a currency, are not dropped.
    expect(parseMinorUnits("$19.99", 0, "KRW")).toMatch(/not a number/);
    expect(parseMinorUnits("₩1000", 0)).toMatch(/not a number/);
    expect(parseMinorUnits("1000원", 2, "USD")).toMatch(/not a number/);
    expect(withoutCurrencyMarks("12,000원", "KRW")).toBe("12,000");
    expect(withoutCurrencyMarks("12", "XXX")).toBe("12");
  });

  test("non-numbers and non-finite values are refused", () => {
    expect(parseMinorUnits("abc", 0)).toMatch(/not a number/);
    expect(parseMinorUnits("NaN", 0)).toMatch(/not a number/);
    expect(parseMinorUnits("Infinity", 0)).toMatch(/not a number/);
    expect(parseMinorUnits(Number.POSITIVE_INFINITY, 0)).toMatch(/not a finite number/);
    expect(parseMinorUnits("", 0)).toMatch(/empty/);
    expect(parseMinorUnits(undefined, 0)).toMatch(/missing/);
    expect(parseMinorUnits(true, 0)).toMatch(/not a number/);
    expect(parseMinorUnits("1e30", 0)).toMatch(/too large/);
  });

  test("sums in minor units are exact where floating point drifts", () => {
    const parts = ["0.1", "0.2", "0.3"].map((p) => parseMinorUnits(p, 2) as number);
    const total = parts.reduce((a, b) => a + b, 0);
    expect(minorToMajor(total, 2)).toBe(0.6);
    expect(0.1 + 0.2 + 0.3).not.toBe(0.6);
  });

  test("formatting round-trips through parsing", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 4 }), (minor, digits) => {
        const text = formatMinorUnits(minor, digits);
        expect(parseMinorUnits(text, digits)).toBe(minor);
        expect(parseMinorUnits(minorToMajor(minor, digits), digits)).toBe(minor);
      }),
    );
    expect(formatMinorUnits(-5, 3)).toBe("-0.005");
  });
});
