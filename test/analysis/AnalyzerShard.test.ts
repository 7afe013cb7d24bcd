import { describe, expect, it } from "vitest";
import { Analyzer, type AnalyzeOptions, type AnalyzeResult } from "../../src/analysis/analyze.ts";
import { AnalyzerShard } from "../../src/analysis/AnalyzerShard.ts";
import { deviceShare } from "../../src/kernels/sessions/deviceShare.ts";
import { decodeSignal } from "../../src/codec/decodeSignal.ts";
import type { Signal } from "../../src/codec/Signal.ts";
import { createRng } from "../../src/sim/random/prng.ts";
import { createWorld } from "../../src/sim/createWorld.ts";

const H = 3_600_000;

// Two shops' hours of a rotating world's records, interleaved as a merged stream delivers them,
// then made hard: neighbours swapped within the allowed lateness, some records delivered minutes
// late (beyond it), and a sensor clock that jumps a day ahead for a few records.
function hardSignals(seed: number): Signal[] {
  const world = createWorld({ seed, shops: 2, days: 1, rotation: "realistic", phones: "real", visitorsPerDay: 150, passersByPerDay: 700, openingHours: [10, 18] });
  const perShop = world.shops.map((shop) => [...world.rawSignals(shop.id, world.startMs + 11 * H, world.startMs + 13 * H)].map((r) => decodeSignal(r)!));
  const rng = createRng(seed);
  const out: Signal[] = [];
  const [a, b] = perShop as [Signal[], Signal[]];
  for (let i = 0, j = 0; i < a.length || j < b.length; ) out.push(j >= b.length || (i < a.length && rng.next() < 0.5) ? a[i++]! : b[j++]!);
  for (let i = 1; i < out.length; i++) if (rng.next() < 0.2 && Math.abs(out[i]!.time - out[i - 1]!.time) < 30_000) [out[i - 1], out[i]] = [out[i]!, out[i - 1]!];
  for (let i = 500; i < out.length; i += 1500) out.splice(i, 0, { ...out[i - 400]!, time: out[i - 400]!.time - 5 * 60_000 });
  for (let i = 2000; i < out.length; i += 5000) out.splice(i, 0, { ...out[i]!, time: out[i]!.time + 86_400_000 + 60_000 });
  return out;
}

function oneEngine(signals: readonly Signal[], options: AnalyzeOptions): AnalyzeResult {
  const analyzer = new Analyzer(options);
  for (const s of signals) analyzer.pushSignal(s);
  return analyzer.finish();
}

// The analysis split into `shares` shares, the others' sessions crossing as they would from a
// thread (structured clones), in runs cut at random records.
function split(signals: readonly Signal[], options: AnalyzeOptions, shares: number, seed: number): AnalyzeResult {
  const analyzer = new Analyzer(options);
  const share0 = analyzer.splitByDevice(shares);
  const others = Array.from({ length: shares - 1 }, (_, i) => new AnalyzerShard(analyzer.shareOptions!, i + 1, shares));
  const crossed = (share: AnalyzerShard, run = share.endRun()) => AnalyzerShard.fromMessage(structuredClone(AnalyzerShard.toMessage(run)));
  const rng = createRng(seed);
  for (const s of signals) {
    share0.push(s);
    for (const o of others) o.push(s);
    if (rng.next() < 0.002) analyzer.pushShares([share0.endRun(), ...others.map((o) => crossed(o))]);
  }
  analyzer.pushShares(
    [share0.flush(), ...others.map((o) => crossed(o, o.flush()))],
    others.map((o) => ({ ...o.stats, quality: structuredClone(o.qualityPart) })),
  );
  return analyzer.finish();
}

describe("AnalyzerShard", () => {
  const signals = hardSignals(31);

  it.each([2, 3, 5])("gives one engine's results split into %i shares: sessions, days, people, quality, late and leaping records", (shares) => {
    const options: AnalyzeOptions = { timeZone: "Asia/Seoul", sessions: { allowedLatenessMs: 60_000 } };
    const expected = oneEngine(signals, options);
    // The stream is as hard as meant: late and leaping records, several shops, sessions.
    expect(expected.late).toBeGreaterThan(0);
    expect(expected.ahead).toBeGreaterThan(0);
    expect(new Set(expected.days.map((d) => d.shopId)).size).toBe(2);
    expect(expected.sessions.length).toBeGreaterThan(1000);
    const actual = split(signals, options, shares, shares);
    expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  });

  it("gives one engine's results with proximity and quality off, and with a short gap", () => {
    const options: AnalyzeOptions = { timeZone: "Asia/Seoul", proximity: false, quality: false, sessions: { gapMs: 45_000 } };
    expect(JSON.stringify(split(signals, options, 2, 9))).toBe(JSON.stringify(oneEngine(signals, options)));
  });

  it("builds each device's sessions in one share only", () => {
    const devices = [...new Set(signals.map((s) => s.device))];
    const counts = [0, 0, 0];
    for (const d of devices) counts[deviceShare(d, 3)]!++;
    // Spread: no share is left with much less than its third.
    for (const n of counts) expect(n).toBeGreaterThan(devices.length / 5);
    const shares = [0, 1, 2].map((i) => new AnalyzerShard({ quality: false }, i, 3));
    for (const s of signals) for (const share of shares) share.push(s);
    const closed = shares.map((share) => share.flush().held.map((h) => h.device));
    for (const [i, list] of closed.entries()) for (const d of list) expect(deviceShare(d, 3)).toBe(i);
  });

  it("is refused for options a split cannot honour, and after the first record", () => {
    expect(() => new Analyzer({ onLate: () => {} }).splitByDevice(2)).toThrow(/cannot be split/);
    expect(() => new Analyzer({ liveOccupancy: true }).splitByDevice(2)).toThrow(/cannot be split/);
    expect(() => new Analyzer({ accumulators: [{}] }).splitByDevice(2)).toThrow(/cannot be split/);
    const started = new Analyzer();
    started.pushSignal(signals[0]!);
    expect(() => started.splitByDevice(2)).toThrow(/before any record/);
    expect(() => new AnalyzerShard({}, 2, 2)).toThrow(RangeError);
  });
});
