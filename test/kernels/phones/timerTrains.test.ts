import { describe, expect, it } from "vitest";
import type { BurstEvent } from "../../../src/kernels/phones/burstGroups.ts";
import { timerTrains } from "../../../src/kernels/phones/timerTrains.ts";
import { createRng } from "../../../src/sim/random/prng.ts";

const RULES = { timerMinMs: 2_000, timerMaxMs: 30_000, timerToleranceMs: 300, timerRssiDb: 8, timerMinBursts: 12 };
const burst = (start: number, rssi: number, sensor = "s1"): BurstEvent => ({ start, sessions: [], rssi: new Map([[sensor, rssi]]) });
const byStart = (a: BurstEvent, b: BurstEvent) => a.start - b.start;

describe("timerTrains", () => {
  it("finds a phone bursting every 15 s with a new MAC each time, a burst missed, among other phones' bursts", () => {
    const rng = createRng(3);
    const t0 = 10_000_000;
    const phone = Array.from({ length: 40 }, (_, i) => burst(t0 + i * 15_000 + rng.int(-200, 200), -62 + rng.int(-3, 3))).filter((_, i) => i !== 17);
    // Others: irregular bursts, at other readings.
    const others = Array.from({ length: 120 }, () => burst(t0 + rng.int(0, 600_000), -80 + rng.int(-4, 4)));
    const trains = timerTrains([...phone, ...others].sort(byStart), RULES);
    expect(trains).toHaveLength(1);
    expect(trains[0]!.bursts.length).toBeGreaterThanOrEqual(30);
    expect(trains[0]!.periodMs).toBeGreaterThan(14_500);
    expect(trains[0]!.periodMs).toBeLessThan(15_500);
    for (const b of trains[0]!.bursts) expect(phone).toContain(b);
  });

  it("does not take two phones side by side on one timer, in step, for one phone (nor for two)", () => {
    const t0 = 20_000_000;
    const a = Array.from({ length: 30 }, (_, i) => burst(t0 + i * 15_000, -60));
    const b = Array.from({ length: 30 }, (_, i) => burst(t0 + i * 15_000 + 150, -61));
    const trains = timerTrains([...a, ...b].sort(byStart), RULES);
    // Every step has two candidates: no train can be told.
    expect(trains).toHaveLength(0);
  });

  it("tells two phones side by side on one timer apart when they are out of step", () => {
    const t0 = 30_000_000;
    const a = Array.from({ length: 30 }, (_, i) => burst(t0 + i * 15_000, -60));
    const b = Array.from({ length: 30 }, (_, i) => burst(t0 + i * 15_000 + 6_000, -61));
    const trains = timerTrains([...a, ...b].sort(byStart), RULES);
    expect(trains).toHaveLength(2);
    expect(new Set(trains.flatMap((t) => t.bursts)).size).toBe(60);
    for (const t of trains) expect(t.bursts.every((x) => a.includes(x)) || t.bursts.every((x) => b.includes(x))).toBe(true);
  });

  it("leaves irregular bursts and short trains alone", () => {
    const rng = createRng(9);
    const t0 = 40_000_000;
    const irregular = Array.from({ length: 200 }, () => burst(t0 + rng.int(0, 3_600_000), -65));
    expect(timerTrains(irregular.sort(byStart), RULES)).toEqual([]);
    const short = Array.from({ length: 11 }, (_, i) => burst(t0 + i * 10_000, -60));
    expect(timerTrains(short, RULES)).toEqual([]);
  });
});
