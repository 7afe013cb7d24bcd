import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  PROXIMITY_ZONES,
  proximityZone,
  proximityZoneIndex,
  proximityZoneOptions,
} from "../../../src/kernels/proximity/proximityZone.ts";

describe("proximityZone", () => {
  it("uses exclusive upper bounds", () => {
    expect(proximityZone(0.99)).toBe("immediate");
    expect(proximityZone(1)).toBe("near");
    expect(proximityZone(3.99)).toBe("near");
    expect(proximityZone(4)).toBe("far");
    expect(proximityZone(Number.NaN)).toBe("far");
  });

  it("honours custom bounds", () => {
    const z = proximityZoneOptions({ immediateM: 0.5, nearM: 2 });
    expect(proximityZone(0.7, z)).toBe("near");
    expect(proximityZone(2.5, z)).toBe("far");
  });

  it("validates eagerly", () => {
    expect(() => proximityZoneOptions({ immediateM: 0 })).toThrow(RangeError);
    expect(() => proximityZoneOptions({ immediateM: 5, nearM: 4 })).toThrow(RangeError);
    expect(() => proximityZoneOptions({ nearM: Infinity })).toThrow(RangeError);
  });

  it("property: zones are monotone in distance", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0.1, max: 3, noNaN: true }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        (a, b, immediateM, extra) => {
          const z = proximityZoneOptions({ immediateM, nearM: immediateM + extra });
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          return proximityZoneIndex(lo, z) <= proximityZoneIndex(hi, z) && PROXIMITY_ZONES[proximityZoneIndex(lo, z)] === proximityZone(lo, z);
        },
      ),
    );
  });
});
