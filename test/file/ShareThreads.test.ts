import { describe, expect, it, vi } from "vitest";
import { Analyzer } from "../../src/analysis/analyze.ts";
import { decodeSignal } from "../../src/codec/decodeSignal.ts";
import type { Signal } from "../../src/codec/Signal.ts";
import { SHARE_RUN_SIGNALS, ShareThreads, signalFeed } from "../../src/file/ShareThreads.ts";
import { createWorld } from "../../src/sim/createWorld.ts";

// Every thread started, so a test can stop one from outside, as a crash or an OOM kill would.
const started = vi.hoisted(() => ({ workers: [] as { terminate(): Promise<number> }[] }));
vi.mock("node:worker_threads", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:worker_threads")>();
  class RecordedWorker extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      super(...args);
      started.workers.push(this);
    }
  }
  return { ...real, Worker: RecordedWorker };
});

// A busy shop-day with rotating MACs: several runs of the split.
const world = createWorld({ seed: 5, shops: 1, rotation: "realistic", visitorsPerDay: 150, passersByPerDay: 2_000, openingHours: [9, 21] });
const signals = [...world.rawSignals(world.shops[0]!.id)].map((r) => decodeSignal(r) as Signal);
const options = { timeZone: "Asia/Seoul" };

async function fed(shares: number): Promise<string> {
  const analyzer = new Analyzer(options);
  const feed = signalFeed(analyzer, shares);
  try {
    for (const s of signals) feed.push(s);
    await feed.finish();
  } finally {
    await feed.close();
  }
  return JSON.stringify(analyzer.finish());
}

describe("ShareThreads and signalFeed", () => {
  it("fed one record at a time, in runs, give one engine's results for any number of shares", async () => {
    expect(signals.length).toBeGreaterThan(2 * SHARE_RUN_SIGNALS);
    const one = await fed(1);
    expect(await fed(2)).toBe(one);
    expect(await fed(4)).toBe(one);
  });

  it("runs on one engine where the options cannot be split (live occupancy), with the same results", async () => {
    const live = new Analyzer({ ...options, liveOccupancy: true });
    expect(live.shareOptions).toBeUndefined();
    const feed = signalFeed(live, 2);
    for (const s of signals.slice(0, 5_000)) feed.push(s);
    await feed.finish();
    await feed.close();
    const alone = new Analyzer({ ...options, liveOccupancy: true });
    for (const s of signals.slice(0, 5_000)) alone.pushSignal(s);
    expect(JSON.stringify(live.finish())).toBe(JSON.stringify(alone.finish()));
  });

  it("refuses fewer than two shares, an analyzer that cannot be split and one already fed", () => {
    expect(() => new ShareThreads(new Analyzer(options), 1, () => undefined)).toThrow(RangeError);
    expect(() => new ShareThreads(new Analyzer({ ...options, liveOccupancy: true }), 2, () => undefined)).toThrow(/cannot be split/);
    const fedAlready = new Analyzer(options);
    fedAlready.pushSignal(signals[0]!);
    expect(() => new ShareThreads(fedAlready, 2, () => undefined)).toThrow(/before any record/);
    expect(() => signalFeed(new Analyzer(options), 0)).toThrow(RangeError);
    expect(() => signalFeed(new Analyzer(options), 1.5)).toThrow(RangeError);
  });

  it("rejects finish when a share thread ends before the input was read", async () => {
    const analyzer = new Analyzer(options);
    const split = new ShareThreads(analyzer, 2, () => undefined);
    const failures: unknown[] = [];
    split.listen({ merged: () => {}, fail: (error) => void failures.push(error) });
    for (const s of signals.slice(0, 1_000)) split.push(s);
    split.endRun();
    // A share thread that dies is a failure, not a hang.
    await started.workers.at(-1)!.terminate();
    await expect(split.finish()).rejects.toThrow(/share thread exited/);
    expect(failures).toHaveLength(1);
    await split.close();
  });
});
