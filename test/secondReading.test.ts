import { describe, expect, it } from "vitest";
import { analyze, type AnalyzeOptions } from "../src/analyze.ts";
import { secondReading } from "../src/secondReading.ts";
import { createWorld, type WorldOptions } from "../src/sim/createWorld.ts";
import type { RawSignal } from "../src/contract/rawSignal.ts";

const worldOptions: WorldOptions = { seed: 13, shops: 1, rotation: "realistic", visitorsPerDay: 120, passersByPerDay: 800, openingHours: [10, 16] };
const options: AnalyzeOptions = { timeZone: "Asia/Seoul" };

// The records as they would reach a reader when `sensor` uploads every `everyMs`: its records
// after newer ones of the other sensors.
function batched(records: readonly RawSignal[], sensor: string, everyMs: number): RawSignal[] {
  const arrival = (r: RawSignal) => (r.square_mac === sensor ? Math.ceil(r.ts / everyMs) * everyMs : r.ts);
  return [...records].sort((a, b) => arrival(a) - arrival(b));
}

describe("secondReading", () => {
  const world = createWorld(worldOptions);
  const records = [...world.rawSignals(101)];
  const sensor = records[0]!.square_mac;

  it("leaves a read with nothing late and clocks that agree as it is", async () => {
    expect(secondReading(await analyze(records, options), options)).toBeUndefined();
  });

  it("keeps records later than the allowed lateness with the lateness that keeps them all, up to maxLeapMs", async () => {
    const late = batched(records, sensor, 180_000);
    const first = await analyze(late, options);
    expect(first.late).toBeGreaterThan(0);
    const again = secondReading(first, options)!;
    expect(again.clockOffsetsMs).toBeUndefined();
    expect(again.allowedLatenessMs).toBe(Math.ceil(first.maxLateMs));
    expect(again.allowedLatenessMs).toBeGreaterThan(60_000);
    const next = again.apply(options);
    expect(next.sessions?.allowedLatenessMs).toBe(again.allowedLatenessMs);
    // The second read uses every record: the sessions of the records in time order (but for the
    // watermark each was emitted at, which follows the arrival order).
    const second = await analyze(late, next);
    expect(second.late).toBe(0);
    const withoutWatermark = (sessions: readonly object[]) => sessions.map((s) => ({ ...s, watermark: undefined }));
    expect(withoutWatermark(second.sessions)).toEqual(withoutWatermark((await analyze(records, next)).sessions));
    // Not when the caller keeps the lateness, nor beyond maxLeapMs (a day by default).
    expect(secondReading(first, options, { keepLate: false })).toBeUndefined();
    const shortLeap: AnalyzeOptions = { ...options, sessions: { maxLeapMs: 120_000 } };
    const firstShort = await analyze(late, shortLeap);
    expect(firstShort.maxLateMs).toBeGreaterThan(120_000);
    expect(secondReading(firstShort, shortLeap)).toBeUndefined();
  });

  it("aligns clocks that disagree and keeps late records in one second read", async () => {
    const skewed = createWorld({ ...worldOptions, sensorClockSkewMs: 4_000 });
    const late = batched([...skewed.rawSignals(101)], sensor, 180_000);
    const first = await analyze(late, options);
    const again = secondReading(first, options)!;
    const offsets = Object.values(again.clockOffsetsMs ?? {});
    expect(offsets.length).toBeGreaterThan(0);
    expect(again.allowedLatenessMs).toBe(Math.ceil(first.maxLateMs));
    const next = again.apply(options);
    expect(next.decode?.clockOffsetsMs).toEqual(again.clockOffsetsMs);
    const spread = Math.max(0, ...offsets) - Math.min(0, ...offsets);
    expect(next.sessions?.allowedLatenessMs).toBe(again.allowedLatenessMs! + spread);
    const second = await analyze(late, next);
    expect(second.late).toBe(0);
    // Counted as if the clocks agreed and the records came in order (the day: aligned to one
    // sensor's clock, another's first seconds may fall on the day before).
    const right = await analyze(records, options);
    const day = (r: typeof right) => r.days.find((d) => d.label === "2026-11-16")!;
    expect(day(second).visitors).toBe(day(right).visitors);
    expect(Math.round(day(second).people!.visitors)).toBe(Math.round(day(right).people!.visitors));
    // Only the clocks when the caller keeps the lateness.
    const clocksOnly = secondReading(first, options, { keepLate: false })!;
    expect(clocksOnly.allowedLatenessMs).toBeUndefined();
    expect(clocksOnly.apply(options).sessions?.allowedLatenessMs).toBe(60_000 + spread);
  });

  it("aligns a clock that runs minutes behind the other without making the other's records late", async () => {
    // Two sensors, one stamping 80 s early: aligned, its records move 80 s ahead of the other's
    // read beside them, so the lateness must grow by the clocks' spread, not only by a clock ahead.
    const two = createWorld({ ...worldOptions, sensorsPerShop: 2 });
    const all = [...two.rawSignals(101)];
    // The sensor heard less: the other, heard most, is the clock alignment keeps.
    const heard = new Map<string, number>();
    for (const r of all) heard.set(r.square_mac, (heard.get(r.square_mac) ?? 0) + 1);
    const behind = [...heard].sort((a, b) => a[1] - b[1])[0]![0];
    const stamped = all.map((r) => (r.square_mac === behind ? { ...r, ts: r.ts - 80_000 } : r)).sort((a, b) => a.ts - b.ts);
    const first = await analyze(stamped, options);
    const again = secondReading(first, options, { keepLate: false })!;
    const offsets = Object.values(again.clockOffsetsMs ?? {});
    expect(offsets.map((o) => Math.round(o / 1000))).toEqual([-80]);
    const second = await analyze(stamped, again.apply(options));
    expect(second.late).toBe(0);
    expect(second.quality!.signals).toBe(all.length);
  });
});
