import { describe, expect, it } from "vitest";
import { phoneProfiles, TYPICAL_GAP_JITTER } from "../../../src/sim/phones/PhoneProfile.ts";
import { realPhoneCaptures } from "../../../src/sim/phones/realPhoneCaptures.ts";

/** z of the normal's 90th percentile. */
const Z90 = 1.2815515655446004;

describe("phoneProfiles: each capture as a phone to replay", () => {
  const profiles = phoneProfiles(realPhoneCaptures);
  const pairs = realPhoneCaptures.map((c, i) => [c, profiles[i]!] as const);

  it("one profile per capture, in order, named device-mode, frozen", () => {
    expect(profiles).toHaveLength(realPhoneCaptures.length);
    expect(Object.isFrozen(profiles)).toBe(true);
    for (const [c, p] of pairs) {
      expect(p.id).toBe(`${c.device}-${c.mode}`);
      expect(Object.isFrozen(p)).toBe(true);
    }
    expect(new Set(profiles.map((p) => p.id)).size).toBe(profiles.length);
  });

  it("a timer (three bursts or more, p90 within 10 % of the median) probes at the capture's median gap, spread no more than its p90 shows", () => {
    for (const [c, p] of pairs) {
      const timer = c.bursts >= 3 && c.gapP90S! <= 1.1 * c.gapMedianS!;
      expect(p.timer, p.id).toBe(timer);
      if (!timer) continue;
      expect(p.gapMedianMs).toBeCloseTo(1000 * c.gapMedianS!, 6);
      // p90 of the log-normal: the capture's, unless rounding to 0.1 s could hide more spread.
      const p90 = (p.gapMedianMs / 1000) * Math.exp(Z90 * p.gapJitter);
      expect(p90).toBeGreaterThanOrEqual(c.gapP90S! - 1e-9);
      expect(p90).toBeLessThanOrEqual(Math.max(c.gapP90S!, c.gapMedianS! + 0.05) + 1e-9);
    }
    // The timers the issue names: phone B every 15 s, C and D every 5 s and 15 s, X every 3.1 s.
    const byId = new Map(profiles.map((p) => [p.id, p]));
    for (const [id, s] of [["B-A", 15], ["B-PA", 15], ["C-A", 5], ["D-A", 15], ["X-PA", 3.1]] as const) {
      expect(byId.get(id)!.timer, id).toBe(true);
      expect(byId.get(id)!.gapMedianMs).toBe(1000 * s);
      expect(byId.get(id)!.gapJitter).toBeLessThan(0.03); // a few per cent
    }
  });

  it("an irregular prober keeps the capture's burst rate: its gaps' mean is 60 ÷ bursts a minute, their spread from p90 over median (or the typical spread with under three bursts)", () => {
    for (const [c, p] of pairs) {
      if (p.timer) continue;
      const meanGapMs = p.gapMedianMs * Math.exp((p.gapJitter * p.gapJitter) / 2);
      expect(meanGapMs).toBeCloseTo(60_000 / c.burstsPerMinute, 3);
      if (c.bursts >= 3) expect(p.gapJitter).toBeCloseTo(Math.log(c.gapP90S! / c.gapMedianS!) / Z90, 9);
      else expect(p.gapJitter).toBe(TYPICAL_GAP_JITTER);
    }
    // The typical spread is that of the irregular captures that measure one.
    const measured = pairs.filter(([c, p]) => !p.timer && c.bursts >= 3).map(([, p]) => p.gapJitter).sort((a, b) => a - b);
    expect(measured.filter((x) => x < TYPICAL_GAP_JITTER).length).toBe(measured.filter((x) => x > TYPICAL_GAP_JITTER).length);
  });

  it("MACs as the capture used them: new ones within a burst, one lasting some bursts, one held, or the universal one", () => {
    for (const [c, p] of pairs) {
      expect(p.universal).toBe(c.universal);
      if (c.universal) {
        expect([p.macsPerBurst, p.burstsPerMac]).toEqual([1, Number.POSITIVE_INFINITY]);
      } else if (c.macs > c.bursts) {
        expect(p.macsPerBurst * c.bursts).toBeCloseTo(c.macs, 9); // every MAC new, the capture's count kept
        expect(p.burstsPerMac).toBe(1);
      } else if (c.macs === 1) {
        expect([p.macsPerBurst, p.burstsPerMac]).toEqual([1, Number.POSITIVE_INFINITY]);
      } else {
        expect(p.macsPerBurst).toBe(1);
        expect(p.burstsPerMac * c.macs).toBeCloseTo(c.bursts, 9);
      }
    }
    // The captures with 2–10 MACs a burst take as many a burst, within 1.5 of the median they show.
    for (const [c, p] of pairs.filter(([c]) => c.macsPerBurst >= 2)) {
      expect(Math.abs(p.macsPerBurst - c.macsPerBurst), p.id).toBeLessThanOrEqual(1.5);
    }
  });

  it("frames: the capture's frames over its bursts; channels: its median", () => {
    for (const [c, p] of pairs) {
      expect(p.framesPerBurst * c.bursts).toBeCloseTo(c.frames, 9);
      expect(p.channelsPerBurst).toBe(c.channelsPerBurst);
    }
  });
});
