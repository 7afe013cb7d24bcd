import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeSignal, SignalDecoder, type InvalidRecord } from "../../src/codec/decodeSignal.ts";
import type { Signal } from "../../src/codec/Signal.ts";
import { SignalBatchReader, SignalBatchWriter } from "../../src/file/SignalBatch.ts";

const hex = (n: number, width: number): string => n.toString(16).padStart(width, "0");
const mac = (n: number): string => hex(n, 12).match(/../g)!.join(":");

// Real decoded signals (so `flags`, `vendor`, `randomized` are what the decoder makes).
const signalArb = fc
  .record({
    shop: fc.integer({ min: 0, max: 2 ** 40 }),
    ms: fc.integer({ min: 946_684_800_000, max: 2 ** 45 }), // from 2000: earlier is a clock never set (bad-ts)
    device: fc.integer({ min: 0, max: 2 ** 48 - 1 }),
    sensor: fc.integer({ min: 0, max: 3 }),
    rssi: fc.integer({ min: -127, max: 0 }),
    local: fc.boolean(),
    skew: fc.constantFrom(0, 5000),
  })
  .map((r) => {
    const s = decodeSignal({
      row_key: `${r.shop}:${hex(r.ms, 16)}`,
      device_id: mac(r.device),
      rssi: r.rssi,
      square_mac: mac(0xb827eb000000 + r.sensor),
      ts: r.ms + r.skew,
      local: r.local,
    });
    return s as Signal;
  });

/** A reader that looks vendors up as the thread applying a decode thread's batches does. */
const newReader = (): SignalBatchReader => {
  const decoder = new SignalDecoder();
  return new SignalBatchReader((device) => decoder.vendorOfDevice(device));
};

describe("SignalBatch", () => {
  it("a signal comes out of writer → reader exactly as the decoder made it, across batches, vendor included", () => {
    fc.assert(
      fc.property(fc.array(signalArb, { maxLength: 20_000 }), (signals) => {
        const writer = new SignalBatchWriter();
        const reader = newReader();
        const out: Signal[] = [];
        const flush = (): void => {
          // Through structured clone, as postMessage does.
          reader.read(structuredClone(writer.take().batch), (s) => out.push(s));
        };
        for (const s of signals) if (writer.add(s)) flush();
        flush();
        expect(out).toStrictEqual(signals);
        // The vendorless signals the receiver counts are those the decoder counts.
        const decoder = new SignalDecoder();
        for (const s of signals) decoder.decodeFields({ ...s, ts: s.time, rtsValue: Number.parseInt(s.rts, 16) });
        expect(reader.vendorless).toBe(decoder.stats.vendorless);
        for (let i = 0; i < out.length; i++) expect(Object.keys(out[i]!)).toStrictEqual(Object.keys(signals[i]!));
      }),
      { numRuns: 15 },
    );
  });

  it("without the RTS (rts: false) a signal comes out as the decoder made it but for an empty RTS, which the batch does not carry", () => {
    fc.assert(
      fc.property(fc.array(signalArb, { minLength: 1, maxLength: 3000 }), (signals) => {
        const writer = new SignalBatchWriter({ rts: false });
        const reader = newReader();
        const out: Signal[] = [];
        for (const s of signals) writer.add(s);
        const { batch } = writer.take();
        expect(batch.rts).toBe("");
        reader.read(structuredClone(batch), (s) => out.push(s));
        expect(out).toStrictEqual(signals.map((s) => ({ ...s, rts: "" })));
      }),
      { numRuns: 10 },
    );
  });

  it("reads a batch for one share of a device split: its devices' signals, the others' shop, sensor and time, in order", () => {
    fc.assert(
      fc.property(fc.array(signalArb, { maxLength: 3000 }), fc.integer({ min: 1, max: 4 }), (signals, modulo) => {
        const writer = new SignalBatchWriter();
        const reader = newReader();
        const whole = newReader();
        const owns = (device: string): boolean => device.charCodeAt(device.length - 1) % modulo === 0;
        const seen: unknown[] = [];
        const flush = (): void => {
          const batch = structuredClone(writer.take().batch);
          whole.read(batch, () => {});
          reader.readShare(batch, owns, (s) => seen.push(s), (shopId, sensor, time) => seen.push([shopId, sensor, time]));
        };
        for (const s of signals) if (writer.add(s)) flush();
        flush();
        expect(seen).toStrictEqual(signals.map((s) => (owns(s.device) ? s : [s.shopId, s.sensor, s.time])));
        // Vendorless are counted for every record, a signal made of it or not.
        expect(reader.vendorless).toBe(whole.vendorless);
      }),
      { numRuns: 15 },
    );
  });

  it("carries rejections with their lines, in order, and a batch may hold only those", () => {
    const writer = new SignalBatchWriter();
    const bad: InvalidRecord = { reason: "not-json", field: "", message: "not JSON", record: "{x" };
    writer.addInvalid(3, bad);
    writer.addInvalid(9, { ...bad, record: "{y" });
    const { batch } = writer.take();
    expect(batch.count).toBe(0);
    expect(batch.invalid.map((x) => [x.line, x.invalid.record])).toStrictEqual([
      [3, "{x"],
      [9, "{y"],
    ]);
    expect(writer.take().batch.invalid).toStrictEqual([]);
  });

  it("gives the engine Signals of the decoder's own hidden class, so its code sees one map", () => {
    // V8's own answer (%HaveSameMap, in a process with natives syntax): a SHOP ID read back from
    // the Float64Array column as a double gave batch Signals a map of their own.
    const src = (path: string) => JSON.stringify(fileURLToPath(new URL(`../../src/${path}`, import.meta.url)));
    const dir = mkdtempSync(join(tmpdir(), "footfall-maps-"));
    try {
      const script = join(dir, "maps.mts");
      writeFileSync(
        script,
        `import { decodeSignal, SignalDecoder } from ${src("codec/decodeSignal.ts")};
         import { SignalBatchReader, SignalBatchWriter } from ${src("file/SignalBatch.ts")};
         const sameMap = new Function("a", "b", "return %HaveSameMap(a, b)");
         const answers = [];
         for (const [shop, device] of [[101, "f0:18:98:12:34:56"], [7, "da:a1:19:00:00:01"]]) {
           const decoded = decodeSignal({ row_key: shop + ":0000019a9ec06410", device_id: device, rssi: -61, square_mac: "b8:27:eb:00:00:01", ts: 1763600000016, local: device.startsWith("da") });
           const writer = new SignalBatchWriter();
           writer.add(decoded);
           const read = [];
           const receiver = new SignalDecoder();
           new SignalBatchReader((d) => receiver.vendorOfDevice(d)).read(structuredClone(writer.take().batch), (s) => read.push(s));
           answers.push(sameMap(decoded, read[0]));
         }
         console.log(answers.join(","));`,
      );
      const out = execFileSync(process.execPath, ["--allow-natives-syntax", "--import", "tsx", script], { encoding: "utf8", cwd: fileURLToPath(new URL("../..", import.meta.url)) });
      expect(out.trim()).toBe("true,true");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
