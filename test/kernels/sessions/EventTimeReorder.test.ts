import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Signal } from "../../../src/codec/Signal.ts";
import { EventTimeReorder, canonicalSignalOrder } from "../../../src/kernels/sessions/EventTimeReorder.ts";

const T0 = 1_763_600_000_000;

function sig(time: number, device = "f0:18:98:00:00:01", sensor = "b8:27:eb:00:00:01", rssi = -60): Signal {
  return { shopId: 101, rts: time.toString(16).padStart(16, "0"), time, device, rssi, sensor, local: false, randomized: false, vendor: undefined };
}

/** Feeds `signals`, taking what the watermark releases after each; drains at the end. */
function run(signals: readonly Signal[], lane = new EventTimeReorder({ allowedLatenessMs: 10_000 })) {
  const out: Signal[] = [];
  const late: Signal[] = [];
  for (const s of signals) {
    if (!lane.add(s)) late.push(s);
    for (let x = lane.take(lane.watermark); x !== undefined; x = lane.take(lane.watermark)) out.push(x);
  }
  const released = out.length;
  for (let x = lane.take(Infinity); x !== undefined; x = lane.take(Infinity)) out.push(x);
  return { out, late, released, lane };
}

const sorted = (signals: readonly Signal[]) => [...signals].sort((a, b) => (canonicalSignalOrder(a, b) ? -1 : canonicalSignalOrder(b, a) ? 1 : 0));

describe("EventTimeReorder", () => {
  it("holds signals until the watermark passes them, then hands them out in canonical order", () => {
    const lane = new EventTimeReorder({ allowedLatenessMs: 10_000 });
    const b = sig(T0, "f0:18:98:00:00:02");
    const a = sig(T0, "f0:18:98:00:00:01");
    expect(lane.add(b)).toBe(true);
    expect(lane.add(a)).toBe(true);
    expect(lane.watermark).toBe(T0 - 10_000);
    expect(lane.take(lane.watermark)).toBeUndefined();
    expect(lane.size).toBe(2);
    expect(lane.add(sig(T0 + 10_000))).toBe(true);
    // Strictly earlier than the watermark: signals at it stay held.
    expect(lane.watermark).toBe(T0);
    expect(lane.take(lane.watermark)).toBeUndefined();
    lane.add(sig(T0 + 10_001));
    expect([lane.take(lane.watermark), lane.take(lane.watermark), lane.take(lane.watermark)]).toEqual([a, b, undefined]);
    expect(lane.size).toBe(2);
  });

  it("rejects signals behind the watermark (and NaN times) without changing anything", () => {
    const lane = new EventTimeReorder({ allowedLatenessMs: 1_000 });
    lane.add(sig(T0));
    expect(lane.add(sig(T0 - 1_001))).toBe(false);
    expect(lane.add(sig(Number.NaN))).toBe(false);
    expect(lane.add(sig(T0 - 1_000))).toBe(true);
    expect(lane.size).toBe(2);
    expect(lane.maxSeen).toBe(T0);
  });

  it("uses the order it is given for equal times", () => {
    const bySensorFirst = (a: Signal, b: Signal) => (a.time !== b.time ? a.time < b.time : a.sensor < b.sensor);
    const x = sig(T0, "f0:18:98:00:00:01", "b8:27:eb:00:00:02");
    const y = sig(T0, "f0:18:98:00:00:02", "b8:27:eb:00:00:01");
    expect(run([x, y], new EventTimeReorder({ order: bySensorFirst })).out).toEqual([y, x]);
    expect(run([y, x]).out).toEqual([x, y]);
  });

  it("keeps order and loses nothing over many compactions", () => {
    const signals = Array.from({ length: 10_000 }, (_, i) => sig(T0 + Math.floor(i / 3) * 100, `f0:18:98:00:00:${String(i % 3).padStart(2, "0")}`));
    const { out, late, released } = run([...signals].reverse().sort((a, b) => a.time - b.time));
    expect(late).toEqual([]);
    expect(released).toBeGreaterThan(9_000);
    expect(out).toEqual(sorted(signals));
  });

  it("orders ties of time, device, sensor and RSSI by the local flag (false first), then by RTS", () => {
    const local = { ...sig(T0), local: true, rts: "0000000000000000" };
    const universal = { ...sig(T0), rts: "ffffffffffffffff" };
    const earlier = { ...sig(T0), rts: "0000000000000001" };
    expect(sorted([local, universal, earlier])).toEqual([earlier, universal, local]);
  });

  it("validates options eagerly", () => {
    expect(() => new EventTimeReorder({ allowedLatenessMs: -1 })).toThrow(RangeError);
    expect(() => new EventTimeReorder({ allowedLatenessMs: Number.NaN })).toThrow(RangeError);
    expect(() => new EventTimeReorder({ order: "time" as never })).toThrow(TypeError);
  });

  it("property: any arrival order within the allowed lateness gives the sorted sequence", () => {
    const lateness = 5_000;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            dt: fc.integer({ min: 0, max: 3_000 }),
            device: fc.constantFrom("f0:18:98:00:00:01", "f0:18:98:00:00:02", "02:00:00:00:00:03"),
            sensor: fc.constantFrom("b8:27:eb:00:00:01", "b8:27:eb:00:00:02"),
            rssi: fc.integer({ min: -90, max: -40 }),
            delay: fc.integer({ min: 0, max: lateness }),
          }),
          { maxLength: 200 },
        ),
        (rows) => {
          let t = T0;
          const signals = rows.map((r) => ({ s: sig((t += r.dt), r.device, r.sensor, r.rssi), arrival: t + r.delay }));
          const arrival = [...signals].sort((a, b) => a.arrival - b.arrival).map((x) => x.s);
          const { out, late } = run(arrival, new EventTimeReorder({ allowedLatenessMs: lateness }));
          expect(late).toEqual([]);
          expect(out).toEqual(sorted(signals.map((x) => x.s)));
        },
      ),
    );
  });

  it("property: a sensor delivering hours late (deep stragglers, held in a heap) still gives the sorted sequence", () => {
    const lateness = 3 * 3_600_000;
    fc.assert(
      fc.property(
        fc.array(fc.record({ dt: fc.integer({ min: 0, max: 20_000 }), lagging: fc.boolean(), rssi: fc.integer({ min: -90, max: -40 }) }), { maxLength: 1_500 }),
        fc.integer({ min: 0, max: lateness }),
        (rows, lag) => {
          let t = T0;
          // One sensor's signals reach the lane `lag` ms after their time, the other's at once.
          const signals = rows.map((r) => ({ s: sig((t += r.dt), "f0:18:98:00:00:01", r.lagging ? "b8:27:eb:00:00:02" : "b8:27:eb:00:00:01", r.rssi), arrival: t + (r.lagging ? lag : 0) }));
          const arrival = [...signals].sort((a, b) => a.arrival - b.arrival).map((x) => x.s);
          const lane = new EventTimeReorder({ allowedLatenessMs: lateness });
          const { out, late } = run(arrival, lane);
          expect(late).toEqual([]);
          expect(out).toEqual(sorted(signals.map((x) => x.s)));
          expect(lane.size).toBe(0);
        },
      ),
      { numRuns: 40 },
    );
  });
});
