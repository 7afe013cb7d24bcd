import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { defaultPathLoss, distanceToRssi, log10Distance, pathLossOptions, rssiToDistance } from "../../../src/kernels/proximity/pathLoss.ts";

describe("pathLoss", () => {
  it("anchors at rssiAt1m and loses 10·n dB per decade", () => {
    const m = pathLossOptions({ rssiAt1m: -40, exponent: 2 });
    expect(rssiToDistance(-40, m)).toBe(1);
    expect(rssiToDistance(-60, m)).toBeCloseTo(10, 12);
    expect(distanceToRssi(100, m)).toBeCloseTo(-80, 12);
  });

  it("has physically sensible defaults", () => {
    expect(defaultPathLoss.rssiAt1m).toBeLessThan(-35);
    expect(defaultPathLoss.rssiAt1m).toBeGreaterThan(-55);
    expect(defaultPathLoss.exponent).toBeGreaterThanOrEqual(2);
    expect(defaultPathLoss.exponent).toBeLessThanOrEqual(3.5);
    expect(rssiToDistance(-45)).toBe(1);
  });

  it("validates eagerly", () => {
    expect(() => pathLossOptions({ exponent: 0 })).toThrow(RangeError);
    expect(() => pathLossOptions({ exponent: Number.NaN })).toThrow(RangeError);
    expect(() => pathLossOptions({ rssiAt1m: Infinity })).toThrow(RangeError);
  });

  const model = fc.record({
    rssiAt1m: fc.double({ min: -70, max: -20, noNaN: true }),
    exponent: fc.double({ min: 1.5, max: 5, noNaN: true }),
  });

  it("property: rssiToDistance ∘ distanceToRssi is the identity", () => {
    fc.assert(
      fc.property(model, fc.double({ min: 0.05, max: 200, noNaN: true }), (opts, d) => {
        const m = pathLossOptions(opts);
        return Math.abs(rssiToDistance(distanceToRssi(d, m), m) - d) <= 1e-9 * d;
      }),
    );
  });

  it("property: 10 ** log10Distance is exactly rssiToDistance", () => {
    fc.assert(
      fc.property(model, fc.double({ min: -127, max: 0, noNaN: true }), (opts, rssi) => {
        const m = pathLossOptions(opts);
        return 10 ** log10Distance(rssi, m) === rssiToDistance(rssi, m);
      }),
    );
    expect(log10Distance(-72)).toBe(1);
  });

  it("property: distance decreases strictly as RSSI rises", () => {
    fc.assert(
      fc.property(model, fc.integer({ min: -127, max: -1 }), (opts, rssi) => {
        const m = pathLossOptions(opts);
        return rssiToDistance(rssi + 1, m) < rssiToDistance(rssi, m);
      }),
    );
  });
});
