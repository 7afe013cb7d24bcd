import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  createTrimmedMeanState,
  currentTrimmedMean,
  runningTrimmedMean,
  runningTrimmedMeanOptions,
  trimmedMean,
} from "../../src/stats/trimmedMean.ts";

function naive(values: number[], trim: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const cut = Math.floor(values.length * trim + 1e-9);
  const kept = sorted.slice(cut, sorted.length - cut);
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}

describe("trimmedMean", () => {
  it("drops the extremes", () => {
    expect(trimmedMean([-60, -61, -59, -90, -30])).toBe(-60);
    expect(trimmedMean([1, 2, 3, 4], 0)).toBe(2.5);
    expect(trimmedMean([])).toBeNaN();
  });

  it("does not modify its input", () => {
    const v = [3, 1, 2];
    trimmedMean(v, 0.2);
    expect(v).toEqual([3, 1, 2]);
  });

  it("rejects bad trims", () => {
    expect(() => trimmedMean([1], 0.5)).toThrow(RangeError);
    expect(() => trimmedMean([1], -0.1)).toThrow(RangeError);
  });

  it("property: equals a naive sort-slice-average and lies within min…max", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -127, max: 0 }), { minLength: 1, maxLength: 40 }),
        fc.double({ min: 0, max: 0.49, noNaN: true }),
        (values, trim) => {
          const got = trimmedMean(values, trim);
          return (
            Math.abs(got - naive(values, trim)) < 1e-9 &&
            got >= Math.min(...values) - 1e-9 &&
            got <= Math.max(...values) + 1e-9
          );
        },
      ),
    );
  });
});

describe("runningTrimmedMean", () => {
  it("averages the last `size` samples after trimming", () => {
    const o = runningTrimmedMeanOptions({ size: 5, trim: 0.2, windowMs: Infinity });
    const s = createTrimmedMeanState(o);
    const inputs = [-60, -62, -30, -61, -95, -59];
    let out = Number.NaN;
    inputs.forEach((v, i) => (out = runningTrimmedMean(s, v, i * 1000, o)));
    expect(out).toBeCloseTo(naive(inputs.slice(-5), 0.2), 12);
  });

  it("leaves out samples older than the time window", () => {
    const o = runningTrimmedMeanOptions({ size: 5, trim: 0, windowMs: 10_000 });
    const s = createTrimmedMeanState(o);
    runningTrimmedMean(s, -90, 0, o);
    runningTrimmedMean(s, -90, 1_000, o);
    expect(runningTrimmedMean(s, -50, 60_000, o)).toBe(-50);
    expect(currentTrimmedMean(s, o)).toBe(-50);
  });

  it("accepts out-of-order samples inside the window", () => {
    const o = runningTrimmedMeanOptions({ size: 3, trim: 0, windowMs: 10_000 });
    const s = createTrimmedMeanState(o);
    runningTrimmedMean(s, -60, 10_000, o);
    expect(runningTrimmedMean(s, -70, 5_000, o)).toBe(-65);
  });

  it("validates options", () => {
    expect(() => runningTrimmedMeanOptions({ size: 0 })).toThrow(RangeError);
    expect(() => runningTrimmedMeanOptions({ size: 2.5 })).toThrow(RangeError);
    expect(() => runningTrimmedMeanOptions({ windowMs: 0 })).toThrow(RangeError);
    expect(() => createTrimmedMeanState({ size: -1 })).toThrow(RangeError);
  });

  it("property: equals the batch trimmed mean of the last `size` in-window samples", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -127, max: 0 }), fc.integer({ min: 0, max: 20_000 })), {
          minLength: 1,
          maxLength: 50,
        }),
        fc.integer({ min: 1, max: 9 }),
        fc.double({ min: 0, max: 0.49, noNaN: true }),
        fc.integer({ min: 1, max: 60_000 }),
        (samples, size, trim, windowMs) => {
          const o = runningTrimmedMeanOptions({ size, trim, windowMs });
          const s = createTrimmedMeanState(o);
          const seen: Array<[number, number]> = [];
          let newest = -Infinity;
          for (const [v, t] of samples) {
            seen.push([v, t]);
            newest = Math.max(newest, t);
            const got = runningTrimmedMean(s, v, t, o);
            const window = seen.slice(-size).filter(([, tt]) => tt >= newest - windowMs).map(([vv]) => vv);
            const want = naive(window, trim);
            if (Math.abs(got - want) > 1e-9) return false;
          }
          return true;
        },
      ),
    );
  });
});
