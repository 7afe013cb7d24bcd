import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Analyzer } from "../../src/analysis/analyze.ts";
import type { SignalDecoderStats } from "../../src/codec/decodeSignal.ts";
import { readInputInThreads } from "../../src/file/readInputInThreads.ts";
import { rawDevice, type DeviceId } from "../../src/analysis/AnalysisRecord.ts";
import { analysisRecords } from "../../src/analysis/analysisRecords.ts";
import type { LineDevice, SessionLineThreads } from "../../src/file/SessionLineThreads.ts";
import { Pseudonymizer } from "../../src/privacy/Pseudonymizer.ts";
import { SignalLineReader } from "../../src/file/SignalLineReader.ts";
import { createWorld } from "../../src/sim/createWorld.ts";

const H = 3_600_000;

// Ranges the decode threads finished: a read whose engine thread read every range itself would
// give the same results and test nothing of the hand-over.
const decoded = vi.hoisted(() => ({ ranges: 0 }));
vi.mock("node:worker_threads", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:worker_threads")>();
  const count = (m: { type?: string } | undefined): void => void (m?.type === "end" && decoded.ranges++);
  // A decode thread posts on a channel of its own, whose messages the engine's thread takes
  // either as events or synchronously: both are counted. (The counting listener is added in the
  // same tick as the reader's own, so neither misses a message.)
  class CountingChannel extends real.MessageChannel {
    constructor() {
      super();
      this.port1.on("message", count);
    }
  }
  const receiveMessageOnPort: typeof real.receiveMessageOnPort = (port) => {
    const got = real.receiveMessageOnPort(port);
    count(got?.message as { type?: string } | undefined);
    return got;
  };
  return { ...real, MessageChannel: CountingChannel, receiveMessageOnPort };
});

describe("readInputInThreads", () => {
  let dir: string;
  let file: string;
  let bytes: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "footfall-threads-"));
    const world = createWorld({ seed: 11, days: 1 });
    const shop = world.shops[0]!;
    // Every 500th record from a universal MAC the IEEE list does not have: a vendorless signal.
    const lines = [...world.rawSignals(shop.id, world.startMs + 10 * H, world.startMs + 12 * H)].map((r, i) =>
      JSON.stringify(i % 500 === 3 ? { ...r, device_id: `fc:ff:ff:00:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`, local: false } : r),
    );
    // Rejections spread over the file (so over many ranges), a blank line, a BOM, CRLF line ends,
    // and a last line without its line end.
    for (let at = 7; at < lines.length; at += 997) lines.splice(at, 0, at % 2 === 0 ? "{not json" : JSON.stringify({ row_key: "garbage" }));
    lines.splice(300, 0, "");
    bytes = Buffer.from(`\uFEFF${lines.join("\r\n")}`);
    file = join(dir, "day.ndjson");
    await writeFile(file, bytes);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // What one thread gives: the CLI's own path (SignalLineReader straight into the analyzer).
  function oneThread(): { result: ReturnType<Analyzer["finish"]>; invalid: string[]; stats: SignalDecoderStats } {
    const invalid: string[] = [];
    let reader: SignalLineReader | undefined;
    const analyzer = new Analyzer({ decode: { onInvalid: (x) => invalid.push(`${reader!.line} ${x.reason}`) } });
    reader = new SignalLineReader(analyzer.decoder, (s) => analyzer.pushSignal(s));
    reader.push(bytes);
    reader.end();
    return { result: analyzer.finish(), invalid, stats: analyzer.decoder.stats };
  }

  // Ranges of a few lines each: thousands of hand-overs between the threads, where a race in
  // who reads which range would hang or reorder.
  // With shares, the analysis is split by device too: each share's engine on a thread of its own.
  it.each([
    [2, 600, 1],
    [2, 4096, 1],
    [3, 10_000, 1],
    [4, 2000, 1],
    [2, 1 << 30, 1],
    [2, 600, 2],
    [3, 4096, 3],
    [1, 2000, 2],
    [2, 1 << 30, 4],
  ])("gives what one thread gives, rejections and their lines included (%i threads, ranges of %i bytes, %i shares)", async (threads, rangeBytes, shares) => {
    const expected = oneThread();
    const analyzer = new Analyzer();
    const invalid: string[] = [];
    decoded.ranges = 0;
    const stats = await readInputInThreads(file, threads, analyzer, (x, line) => invalid.push(`${line} ${x.reason}`), new AbortController().signal, { rangeBytes, shares });
    const result = analyzer.finish(stats);
    // (A range of 1 GiB is the whole file: one range, this thread's; one thread decodes alone.)
    if (rangeBytes < bytes.length && threads > 1) expect(decoded.ranges).toBeGreaterThan(0);
    else expect(decoded.ranges).toBe(0);
    expect(expected.invalid.length).toBeGreaterThan(3);
    expect(invalid).toEqual(expected.invalid);
    expect(result).toEqual(expected.result);
    // The counters too: a decode thread looks up no vendors, so its signals' vendorless are counted
    // on the engine's thread.
    expect(stats).toStrictEqual(expected.stats);
    expect(stats.vendorless).toBeGreaterThan(0);
    expect(result.sessions.length).toBeGreaterThan(0);
  });

  // A stream in chunks of a given size (lines cut anywhere), gzip-compressed or not: the read cuts
  // it into pieces at line ends, of about `rangeBytes`, and gives most of them to decode threads.
  it.each([
    [2, 600, 97, false, 1],
    [3, 4096, 65_536, true, 1],
    [2, 10_000, 1 << 20, true, 1],
    [4, 2000, 1000, false, 1],
    [2, 1 << 30, 4096, false, 1],
    [2, 600, 97, true, 2],
    [3, 2000, 1000, false, 3],
  ])("reads a stream to what one thread gives (%i threads, pieces of %i bytes, chunks of %i, gzip %s, %i shares)", async (threads, rangeBytes, chunkBytes, gzip, shares) => {
    const expected = oneThread();
    const data = gzip ? gzipSync(bytes) : bytes;
    const chunks = Array.from({ length: Math.ceil(data.length / chunkBytes) }, (_, i) => data.subarray(i * chunkBytes, (i + 1) * chunkBytes));
    const analyzer = new Analyzer();
    const invalid: string[] = [];
    decoded.ranges = 0;
    const stats = await readInputInThreads({ stream: Readable.from(chunks) }, threads, analyzer, (x, line) => invalid.push(`${line} ${x.reason}`), new AbortController().signal, {
      rangeBytes,
      shares,
    });
    const result = analyzer.finish(stats);
    // (Pieces of 1 GiB: the whole stream is one piece, this thread's.)
    if (rangeBytes < bytes.length) expect(decoded.ranges).toBeGreaterThan(0);
    else expect(decoded.ranges).toBe(0);
    expect(invalid).toEqual(expected.invalid);
    expect(result).toEqual(expected.result);
    expect(stats).toStrictEqual(expected.stats);
  });

  it("analyses with one engine when the analyzer's options cannot be split by device (a callback sees every late signal)", async () => {
    const late: number[] = [];
    const analyzer = new Analyzer({ onLate: (s) => late.push(s.time) });
    expect(analyzer.shareOptions).toBeUndefined();
    const stats = await readInputInThreads(file, 2, analyzer, () => {}, new AbortController().signal, { rangeBytes: 4096, shares: 3 });
    expect(analyzer.finish(stats)).toEqual(oneThread().result);
  });

  it("sends the RTS to an analyzer whose accumulators are handed signals: they see each one as one thread gives it", async () => {
    const seen = (): { analyzer: Analyzer; signals: string[] } => {
      const signals: string[] = [];
      const analyzer = new Analyzer({ accumulators: [{ signal: (s) => void signals.push(`${s.time} ${s.device} ${s.rts}`) }] });
      return { analyzer, signals };
    };
    const one = seen();
    const reader = new SignalLineReader(one.analyzer.decoder, (s) => one.analyzer.pushSignal(s));
    reader.push(bytes);
    reader.end();
    one.analyzer.finish();
    const threaded = seen();
    expect(threaded.analyzer.readsRts).toBe(true);
    decoded.ranges = 0;
    threaded.analyzer.finish(await readInputInThreads(file, 2, threaded.analyzer, () => {}, new AbortController().signal, { rangeBytes: 4096 }));
    expect(decoded.ranges).toBeGreaterThan(0);
    expect(threaded.signals).toEqual(one.signals);
    expect(one.signals.every((line) => /^\d+ \S+ [0-9a-f]{16}$/.test(line))).toBe(true);
    // The analysis alone reads no RTS: its decode threads send none.
    expect(new Analyzer().readsRts).toBe(false);
  });

  it("stops a split read when asked", async () => {
    const controller = new AbortController();
    const endless = new Readable({ read() {} });
    endless.push(bytes.subarray(0, 50_000));
    const reading = readInputInThreads({ stream: endless }, 2, new Analyzer(), () => {}, controller.signal, { rangeBytes: 1000, shares: 2 });
    setTimeout(() => controller.abort(), 50);
    await expect(reading).rejects.toThrow("interrupted");
  });

  it("reads an empty stream, and stops a stream's read when asked", async () => {
    const empty = new Analyzer();
    const stats = await readInputInThreads({ stream: Readable.from([]) }, 2, empty, () => {}, new AbortController().signal);
    expect(empty.finish(stats).sessions).toEqual([]);
    // A stream that never ends: the read waits for it until aborted.
    const controller = new AbortController();
    const endless = new Readable({ read() {} });
    endless.push(bytes.subarray(0, 5000));
    const reading = readInputInThreads({ stream: endless }, 2, new Analyzer(), () => {}, controller.signal, { rangeBytes: 1000 });
    setTimeout(() => controller.abort(), 50);
    await expect(reading).rejects.toThrow("interrupted");
  });

  // Three days of two shops, thinned: days are decided (and their sessions classified) while the
  // file is still being read, not only at its end.
  let days: Promise<{ path: string; text: string }> | undefined;
  const daysFile = (): Promise<{ path: string; text: string }> => (days ??= writeDaysFile());
  async function writeDaysFile(): Promise<{ path: string; text: string }> {
    const world = createWorld({ seed: 5, days: 3 });
    // An hour of each day's morning, every 6th record: ~2.6 MB, ~2 000 sessions.
    const records = world.shops.slice(0, 2).flatMap((shop) => [0, 1, 2].flatMap((d) => [...world.rawSignals(shop.id, world.startMs + d * 24 * H + 10 * H, world.startMs + d * 24 * H + 11 * H)].filter((_, i) => i % 6 === 0)));
    records.sort((a, b) => a.ts - b.ts);
    const text = records.map((r) => JSON.stringify(r)).join("\n");
    const path = join(dir, "days.ndjson");
    await writeFile(path, text);
    return { path, text };
  }

  // The session lines `footfall analyze --format ndjson` writes of a result, written here.
  const linesOf = (result: ReturnType<Analyzer["finish"]>, device: DeviceId): string =>
    [...analysisRecords(result)].filter((r) => r.type === "session").length === 0
      ? ""
      : [...analysisRecords(result, { device })].filter((r) => r.type === "session").map((r) => `${JSON.stringify(r)}\n`).join("");

  it.each([
    [2, "none", false],
    [3, "daily", false],
    [2, "raw", false],
    [3, "none", true],
  ] as const)(
    "has the decode threads write the session lines, in order, as this thread would (%i threads, rotation %s, stream %s)",
    async (threads, rotation, stream) => {
      const { path, text } = await daysFile();
      const key = new Uint8Array(16).fill(7);
      const device: LineDevice = rotation === "raw" ? "raw" : new Pseudonymizer({ key, rotation }).copyOptions();
      const here: DeviceId = rotation === "raw" ? rawDevice : (mac, date) => new Pseudonymizer({ key, rotation }).pseudonym(mac, date);
      const analyzer = new Analyzer({ timeZone: "Asia/Seoul" });
      let written: SessionLineThreads | undefined;
      const input = stream ? { stream: Readable.from([gzipSync(text)]) } : path;
      const stats = await readInputInThreads(input, threads, analyzer, () => {}, new AbortController().signal, {
        rangeBytes: 100_000,
        sessionLines: { device, batch: 300, onThreads: (lines) => (written = lines) },
      });
      const result = analyzer.finish(stats);
      expect(result.days.length).toBe(6);
      expect(written).toBeDefined();
      const chunks = await written!.finish();
      // More batches than threads: every thread wrote some, and they came back in order.
      expect(chunks.length).toBeGreaterThan(threads);
      expect(Buffer.concat(chunks).toString()).toBe(linesOf(result, here));
    },
  );

  it("writes no session lines on decode threads when there are none (one range): the result's lines are written as ever", async () => {
    const { path } = await daysFile();
    const onThreads = vi.fn();
    const analyzer = new Analyzer();
    analyzer.finish(await readInputInThreads(path, 2, analyzer, () => {}, new AbortController().signal, { rangeBytes: 1 << 30, sessionLines: { device: "raw", onThreads } }));
    expect(onThreads).not.toHaveBeenCalled();
  });

});
