import { MessageChannel, type MessagePort } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { rawDevice } from "../../src/analysis/AnalysisRecord.ts";
import { sessionRecord, type SessionRecordSource } from "../../src/analysis/sessionRecord.ts";
import { SessionLineBatchReader } from "../../src/file/SessionLineBatch.ts";
import { SessionLineThreads, type LinesMessage, type RenderedMessage } from "../../src/file/SessionLineThreads.ts";

const session = (i: number): SessionRecordSource => ({
  shopId: 101,
  device: `a4:5e:60:00:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`,
  start: 1_794_780_000_000 + i * 1000,
  end: 1_794_780_060_000 + i * 1000,
  date: i < 20 ? "2026-11-16" : "2026-11-17",
  dwellMs: 60_000,
  estimatedDwellMs: 71_234.5,
  signalCount: 3 + i,
  kind: i % 3 === 0 ? "visitor" : "passerby",
  randomized: i % 2 === 0,
  vendor: i % 4 === 0 ? undefined : "Apple, Inc.",
  peakSmoothedRssi: -70.25 - i,
  nearestSensor: `b8:27:eb:00:00:0${i % 3}`,
  late: i === 7,
  proximity: i % 5 === 0 ? undefined : { closestZone: "near", closestDistanceM: 3.14159 },
});

const open: MessagePort[] = [];
afterEach(() => {
  for (const port of open.splice(0)) port.close();
});

/**
 * Ports to `n` stand-ins for decode threads in this process: each writes the lines of the batches
 * it is given as a decode thread does, in turn, and hands them to `lines` — or, from `stopAfter`
 * batches on, stops answering.
 */
function threads(n: number, stopAfter = Number.POSITIVE_INFINITY): { ports: MessagePort[]; connect: (lines: SessionLineThreads) => void } {
  const channels = Array.from({ length: n }, () => new MessageChannel());
  for (const c of channels) open.push(c.port1, c.port2);
  return {
    ports: channels.map((c) => c.port1),
    connect: (lines) => {
      for (const { port1, port2 } of channels) {
        const reader = new SessionLineBatchReader();
        let answered = 0;
        port2.on("message", (m: LinesMessage) => {
          if (m.type !== "lines" || answered++ >= stopAfter) return;
          const bytes = new TextEncoder().encode(reader.lines(m.batch, rawDevice));
          port2.postMessage({ type: "rendered", index: m.index, bytes } satisfies RenderedMessage, [bytes.buffer as ArrayBuffer]);
        });
        port1.on("message", (m: RenderedMessage) => lines.accept(m));
      }
    },
  };
}

const expected = (n: number): string => Array.from({ length: n }, (_, i) => `${JSON.stringify(sessionRecord(session(i), rawDevice))}\n`).join("");

describe("SessionLineThreads", () => {
  it.each([1, 2, 3])("gives every batch's lines in order, the threads taking batches in turn (%i threads)", async (n) => {
    const { ports, connect } = threads(n);
    const lines = new SessionLineThreads(ports, 5);
    connect(lines);
    for (let i = 0; i < 37; i++) lines.push(session(i));
    const chunks = await lines.finish();
    expect(chunks.length).toBe(8);
    expect(Buffer.concat(chunks).toString()).toBe(expected(37));
    // Each thread ended once the lines did, with none of its own left: nothing to reject.
    for (let t = 0; t < n; t++) lines.ended(t);
  });

  it("gives no lines for no sessions", async () => {
    const { ports, connect } = threads(2);
    const lines = new SessionLineThreads(ports, 5);
    connect(lines);
    expect(await lines.finish()).toEqual([]);
  });

  it("rejects when a thread ends before the lines do, or with batches of its own unwritten, or fails", async () => {
    const early = threads(2);
    const a = new SessionLineThreads(early.ports, 5);
    early.connect(a);
    for (let i = 0; i < 12; i++) a.push(session(i));
    a.ended(1);
    await expect(a.finish()).rejects.toThrow(/ended before writing/);

    const silent = threads(2, 1);
    const b = new SessionLineThreads(silent.ports, 5);
    silent.connect(b);
    for (let i = 0; i < 30; i++) b.push(session(i));
    const finishing = b.finish();
    b.ended(0);
    await expect(finishing).rejects.toThrow(/ended before writing/);

    const failing = threads(1);
    const c = new SessionLineThreads(failing.ports, 5);
    c.fail(new Error("the thread failed"));
    c.push(session(0));
    await expect(c.finish()).rejects.toThrow("the thread failed");
  });

  it("is used once: no push after finish, no second finish, and at least one thread", () => {
    const { ports } = threads(1);
    const lines = new SessionLineThreads(ports);
    void lines.finish();
    expect(() => lines.push(session(0))).toThrow(/after finish/);
    expect(() => lines.finish()).toThrow(/twice/);
    expect(() => new SessionLineThreads([])).toThrow(RangeError);
  });
});
