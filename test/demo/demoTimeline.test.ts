import { describe, expect, it } from "vitest";
import { demoTimeline } from "../../src/demo/demoTimeline.ts";

describe("demoTimeline", () => {
  const H = 3_600_000;
  const t = demoTimeline({ dayStartMs: 0, dayEndMs: 24 * H, openMs: 10 * H, closeMs: 22 * H, speed: 1000, marginMs: H / 2, fastForward: 10 });

  it("starts half an hour before opening, runs at speed until half an hour after closing, then ten times faster", () => {
    expect(t.startMs).toBe(9.5 * H);
    expect(t.closedMs).toBe(22.5 * H);
    expect(t.simAt(0)).toBe(9.5 * H);
    expect(t.simAt(1000)).toBe(9.5 * H + 1000 * 1000);
    const open = (13 * H) / 1000;
    expect(t.simAt(open)).toBe(22.5 * H);
    expect(t.simAt(open + 100)).toBe(22.5 * H + 100 * 10_000);
    expect(t.realDurationMs).toBe(open + (1.5 * H) / 10_000);
    expect(t.simAt(t.realDurationMs)).toBeCloseTo(24 * H, 6);
  });

  it("gives the share of the run done at a simulated time", () => {
    expect(t.fractionAt(9.5 * H)).toBe(0);
    expect(t.fractionAt(24 * H)).toBe(1);
    expect(t.fractionAt(t.simAt(t.realDurationMs / 2))).toBeCloseTo(0.5, 9);
    expect(t.fractionAt(0)).toBe(0);
  });

  it("rejects inconsistent times", () => {
    expect(() => demoTimeline({ dayStartMs: 0, dayEndMs: 24 * H, openMs: 22 * H, closeMs: 10 * H })).toThrow(RangeError);
    expect(() => demoTimeline({ dayStartMs: 0, dayEndMs: 24 * H, openMs: 10 * H, closeMs: 22 * H, speed: 0 })).toThrow(RangeError);
  });
});
