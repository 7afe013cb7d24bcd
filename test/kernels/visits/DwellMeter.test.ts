import { describe, expect, it } from "vitest";
import { DwellMeter, dwellMeterOptions, type WindowDwell } from "../../../src/kernels/visits/DwellMeter.ts";
import type { ClassifiedSession } from "../../../src/kernels/visits/VisitClassifier.ts";
import { classifiedSession } from "../sessionFixtures.ts";

const MIN = 60_000;
const H = 3_600_000;
const D0 = Date.UTC(2026, 10, 16);

describe("DwellMeter", () => {
  it("measures visitor dwell per local window (estimated by default, observed on request)", () => {
    const sessions = [
      classifiedSession(D0 + 10 * H, D0 + 10 * H + 4 * MIN, "visitor", { estimatedDwellMs: 5 * MIN }),
      classifiedSession(D0 + 10 * H + 5 * MIN, D0 + 10 * H + 35 * MIN, "visitor", { estimatedDwellMs: 31 * MIN }),
      classifiedSession(D0 + 10 * H + 7 * MIN, D0 + 10 * H + 50 * MIN, "passerby"),
      classifiedSession(D0 + 11 * H, D0 + 11 * H + 2 * H, "visitor", { estimatedDwellMs: 2 * H }),
    ];
    const run = (dwell: "estimated" | "observed") => {
      const out: WindowDwell[] = [];
      const m = new DwellMeter({ window: "hour", timeZone: "UTC", dwell }, { emit: (d) => out.push(d) });
      for (const s of sessions) m.push(s);
      m.flush();
      return out;
    };
    const est = run("estimated");
    expect(est.map((d) => [d.label, d.count, d.meanMs, d.medianMs])).toEqual([
      ["2026-11-16T10:00+00:00", 2, 18 * MIN, 18 * MIN],
      ["2026-11-16T11:00+00:00", 1, 2 * H, 2 * H],
    ]);
    expect(est[0]!.buckets).toEqual({ lt5m: 0, m5to20: 1, m20to60: 1, h1to6: 0, ge6h: 0 });
    const obs = run("observed");
    expect(obs[0]!.buckets).toEqual({ lt5m: 1, m5to20: 0, m20to60: 1, h1to6: 0, ge6h: 0 });
  });

  it("reports count 0 for a window without the chosen kinds", () => {
    const out: WindowDwell[] = [];
    const m = new DwellMeter({ timeZone: "UTC" }, { emit: (d) => out.push(d) });
    m.push(classifiedSession(D0 + H, D0 + 2 * H, "passerby"));
    m.flush();
    expect(out[0]!.count).toBe(0);
    expect(Number.isNaN(out[0]!.medianMs)).toBe(true);
  });

  it("sends a session for a window already emitted to sink.late, not into the statistics", () => {
    const out: WindowDwell[] = [];
    const late: [ClassifiedSession, number][] = [];
    const m = new DwellMeter({ timeZone: "UTC" }, { emit: (d) => out.push(d), late: (s, w) => late.push([s, w]) });
    m.push(classifiedSession(D0 + 10 * H, D0 + 10 * H + 10 * MIN, "visitor", { estimatedDwellMs: 10 * MIN, complete: D0 + 24 * H }));
    expect(out.map((d) => d.count)).toEqual([1]);
    const straggler = classifiedSession(D0 + 12 * H, D0 + 15 * H, "visitor", { estimatedDwellMs: 3 * H, complete: D0 + 24 * H });
    m.push(straggler);
    m.flush();
    expect(late).toEqual([[straggler, D0 + 24 * H]]);
    expect(out.map((d) => [d.count, d.meanMs])).toEqual([[1, 10 * MIN]]);
  });

  it("validates options eagerly", () => {
    expect(() => new DwellMeter({}, {} as never)).toThrow(TypeError);
    // @ts-expect-error wrong on purpose
    expect(() => dwellMeterOptions({ kinds: ["shopper"] })).toThrow(RangeError);
    // @ts-expect-error wrong on purpose
    expect(() => dwellMeterOptions({ dwell: "guess" })).toThrow(RangeError);
  });
});
