import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SignalColumns } from "../../../src/sim/world/signalTable.ts";

describe("SignalColumns", () => {
  it("sorts by time keeping insertion order among equal times; bounds match a scan", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2 ** 40 }), { maxLength: 300 }),
        fc.integer({ min: 1, max: 2 ** 20 }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        (raw, bucket, probe) => {
          // Coarsen times so ties are common; the device column carries the insertion index.
          const times = raw.map((t) => 1.7e12 + Math.floor(t / bucket) * bucket);
          const cols = new SignalColumns(4);
          times.forEach((t, i) => cols.push(t, i, i % 4, -(i % 100) - 1));
          const table = cols.finish(101, [], ["a", "b", "c", "d"]);
          const expected = times.map((t, i) => [t, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          expect(Array.from(table.time)).toEqual(expected.map((e) => e[0]));
          expect(Array.from(table.device)).toEqual(expected.map((e) => e[1]));
          expect(Array.from(table.rssi)).toEqual(expected.map((e) => -(e[1] % 100) - 1));
          const ms = 1.7e12 + probe;
          const lower = expected.findIndex((e) => e[0] >= ms);
          const upper = expected.findIndex((e) => e[0] > ms);
          expect(table.lowerBound(ms)).toBe(lower < 0 ? times.length : lower);
          expect(table.upperBound(ms)).toBe(upper < 0 ? times.length : upper);
          if (times.length > 0) expect(table.lowerBound(table.time[0]!)).toBe(0);
        },
      ),
    );
  });

  it("flags locally administered device MACs", () => {
    const table = new SignalColumns(1).finish(1, ["f0:76:6f:00:00:01", "da:00:00:00:00:01", "02:00:00:00:00:00"], []);
    expect(Array.from(table.deviceLocal)).toEqual([0, 1, 1]);
  });
});
