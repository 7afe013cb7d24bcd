import { describe, expect, it } from "vitest";
import { mean, sampleStandardDeviation } from "simple-statistics";
import { burstYardstick, realPhonesPrior } from "../../../src/kernels/calibration/burstYardstick.ts";
import { realPhoneCaptures } from "../../../src/sim/phones/realPhoneCaptures.ts";

describe("burstYardstick", () => {
  it("is the prior from real phones when nothing is given", () => {
    expect(burstYardstick(undefined)).toBe(realPhonesPrior);
    expect(burstYardstick({})).toEqual(realPhonesPrior);
    expect(Object.isFrozen(realPhonesPrior)).toBe(true);
  });

  it("is the real phones' captures, as the simulator replays them (mean rate, its spread, universal share)", () => {
    // The prior quotes the captures' summary to two decimals: a new table must move it too.
    const rates = realPhoneCaptures.map((c) => c.burstsPerMinute);
    const round2 = (x: number): number => Math.round(x * 100) / 100;
    expect(realPhonesPrior.burstsPerMinute).toBe(round2(mean(rates)));
    expect(realPhonesPrior.personCv).toBe(round2(sampleStandardDeviation(rates) / mean(rates)));
    expect(realPhonesPrior.universalPersonShare).toBe(round2(realPhoneCaptures.filter((c) => c.universal).length / realPhoneCaptures.length));
  });

  it("fills what is not given from the prior, and keeps what is", () => {
    const y = burstYardstick({ burstsPerMinute: 0.9, universalPersonShare: 1 });
    expect(y).toEqual({ ...realPhonesPrior, burstsPerMinute: 0.9, universalPersonShare: 1 });
    expect(Object.isFrozen(y)).toBe(true);
    expect(burstYardstick({ logVariance: 0, personCv: 0, df: 3, universalPersonShare: 0 })).toEqual({
      burstsPerMinute: realPhonesPrior.burstsPerMinute,
      logVariance: 0,
      df: 3,
      personCv: 0,
      universalPersonShare: 0,
    });
    expect(burstYardstick({ df: Number.POSITIVE_INFINITY }).df).toBe(Number.POSITIVE_INFINITY);
  });

  it("rejects what is not an object, and unknown keys (TypeError)", () => {
    expect(() => burstYardstick(null as never)).toThrow(TypeError);
    expect(() => burstYardstick(1.59 as never)).toThrow(TypeError);
    expect(() => burstYardstick("prior" as never)).toThrow(TypeError);
    expect(() => burstYardstick({ burstsPerMin: 0.9 } as never)).toThrow(TypeError);
    expect(() => burstYardstick({ burstsPerMin: 0.9 } as never)).toThrow(/burstsPerMin/);
    expect(() => burstYardstick({ burstsPerMinute: "0.9" } as never)).toThrow(TypeError);
  });

  it("rejects negative, zero-rate, NaN and infinite values, and a share above 1 (RangeError)", () => {
    const bad: Partial<Record<keyof typeof realPhonesPrior, number>>[] = [
      { burstsPerMinute: -0.5 },
      { burstsPerMinute: 0 },
      { burstsPerMinute: Number.NaN },
      { burstsPerMinute: Number.POSITIVE_INFINITY },
      { logVariance: -0.01 },
      { logVariance: Number.NaN },
      { personCv: -1 },
      { personCv: Number.NaN },
      { df: 0.5 },
      { df: Number.NaN },
      { universalPersonShare: 1.01 },
      { universalPersonShare: -0.1 },
      { universalPersonShare: Number.NaN },
    ];
    for (const partial of bad) expect(() => burstYardstick(partial), JSON.stringify(partial)).toThrow(RangeError);
  });

  it("names the option in its messages", () => {
    expect(() => burstYardstick({ personCv: -1 }, "people.prior")).toThrow(/people\.prior\.personCv/);
    expect(() => burstYardstick({ universalPersonShare: 2 })).toThrow(/prior\.universalPersonShare/);
  });
});
