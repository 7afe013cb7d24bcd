import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeSignal, SignalDecoder } from "../../src/codec/decodeSignal.ts";
import { vendorOfNormal } from "../../src/codec/oui.ts";
import type { Signal } from "../../src/codec/Signal.ts";
import { decodeSignalWith, SignalDecoderCore } from "../../src/codec/SignalDecoderCore.ts";

const hex = (n: number, width: number): string => n.toString(16).padStart(width, "0");
const mac = (octets: readonly number[]): string => octets.map((o) => hex(o, 2)).join(":");

// Valid records and broken ones, over prefixes the IEEE list has (Apple, Raspberry Pi), does not
// have, and locally administered ones.
const recordArb = fc
  .record({
    time: fc.integer({ min: 946_684_800_000, max: 4_102_444_800_000 }),
    prefix: fc.constantFrom([0xf0, 0x18, 0x98], [0xb8, 0x27, 0xeb], [0x00, 0x00, 0x00], [0xfc, 0xff, 0xff], [0xda, 0xa1, 0x19], [0x02, 0x00, 0x00]),
    rest: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 3, maxLength: 3 }),
    rssi: fc.integer({ min: -140, max: 5 }),
    local: fc.boolean(),
  })
  .map((r) => ({
    row_key: `101:${hex(r.time, 16)}`,
    device_id: mac([...r.prefix, ...r.rest]),
    rssi: r.rssi,
    square_mac: "b8:27:eb:00:00:01",
    ts: r.time,
    local: r.local,
  }));

describe("SignalDecoderCore", () => {
  it("without a lookup decodes as SignalDecoder with vendors off: the same signals and rejections, no vendorless", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(recordArb, fc.jsonValue()), { maxLength: 200 }), (records) => {
        const core = new SignalDecoderCore(undefined, undefined);
        const off = new SignalDecoder({ vendors: false });
        expect(records.map((r) => core.decode(r))).toStrictEqual(records.map((r) => off.decode(r)));
        expect(core.stats).toStrictEqual(off.stats);
        expect(core.stats.vendorless).toBe(0);
      }),
      { numRuns: 50 },
    );
  });

  it("vendorOfDevice gives each signal's vendor, null exactly where the decoder counts a signal vendorless", () => {
    fc.assert(
      fc.property(fc.array(recordArb, { maxLength: 200 }), (records) => {
        const decoder = new SignalDecoder();
        const signals = records.map((r) => decoder.decode(r)).filter((s): s is Signal => s !== undefined);
        const found = signals.map((s) => decoder.vendorOfDevice(s.device));
        expect(found.map((v) => v ?? undefined)).toStrictEqual(signals.map((s) => s.vendor));
        expect(found.filter((v) => v === null).length).toBe(decoder.stats.vendorless);
      }),
      { numRuns: 50 },
    );
    const decoder = new SignalDecoder();
    expect(decoder.vendorOfDevice("f0:18:98:12:34:56")).toBe("Apple, Inc.");
    expect(decoder.vendorOfDevice("fc:ff:ff:00:00:01")).toBeNull(); // universal, not in the list
    expect(decoder.vendorOfDevice("da:a1:19:00:00:01")).toBeUndefined(); // locally administered
    expect(new SignalDecoder({ vendors: false }).vendorOfDevice("f0:18:98:12:34:56")).toBeUndefined();
    expect(new SignalDecoderCore(undefined, undefined).vendorOfDevice("f0:18:98:12:34:56")).toBeUndefined();
  });

  it("decodeSignalWith uses the lookup it is given, also with the default options it remembers", () => {
    const record = { row_key: "101:0000019a9ec06410", device_id: "f0:18:98:12:34:56", rssi: -61, square_mac: "b8:27:eb:00:00:01", ts: 1763600000016, local: false };
    const named = (name: string) => (): string => name;
    expect((decodeSignalWith(record, undefined, named("A")) as Signal).vendor).toBe("A");
    expect((decodeSignalWith(record, undefined, named("B")) as Signal).vendor).toBe("B");
    expect((decodeSignalWith(record, { vendors: false }, named("B")) as Signal).vendor).toBeUndefined();
    expect(decodeSignalWith(record, undefined, vendorOfNormal)).toStrictEqual(decodeSignal(record));
  });

  it("checks its options as SignalDecoder does, with or without a lookup", () => {
    expect(() => new SignalDecoderCore({ vendors: "yes" as unknown as boolean }, undefined)).toThrow("SignalDecoder: vendors must be a boolean");
    expect(() => new SignalDecoderCore({ tsToleranceMs: -1 }, vendorOfNormal)).toThrow(/^SignalDecoder: tsToleranceMs/);
  });
});
