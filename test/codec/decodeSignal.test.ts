import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SIGNAL_LOCAL_FLAG_MISMATCH, SIGNAL_TS_RTS_MISMATCH } from "../../src/codec/Signal.ts";
import {
  INVALID_REASONS,
  SignalDecoder,
  decodeSignal,
  isInvalidRecord,
  type InvalidRecord,
} from "../../src/codec/decodeSignal.ts";
import { secondsRts } from "../../src/codec/rts.ts";
import type { Signal } from "../../src/codec/Signal.ts";

const TIME = Date.UTC(2025, 10, 20, 9, 30, 0, 16);
const RTS = TIME.toString(16).padStart(16, "0");

function raw(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    row_key: `101:${RTS}`,
    device_id: "f0:18:98:12:34:56",
    rssi: -61,
    square_mac: "b8:27:eb:00:00:01",
    ts: TIME,
    local: false,
    ...overrides,
  };
}

function asSignal(result: Signal | InvalidRecord): Signal {
  if (isInvalidRecord(result)) throw new Error(`unexpected invalid record: ${result.message}`);
  return result;
}

function asInvalid(result: Signal | InvalidRecord): InvalidRecord {
  if (!isInvalidRecord(result)) throw new Error("expected an invalid record");
  return result;
}

const SIGNAL_KEYS = ["shopId", "rts", "time", "device", "rssi", "sensor", "local", "randomized", "vendor", "flags"];

describe("decodeSignal: valid records", () => {
  it("decodes a service record into a Signal with every field, in order", () => {
    const s = asSignal(decodeSignal(raw()));
    expect(s).toStrictEqual({
      shopId: 101,
      rts: RTS,
      time: TIME,
      device: "f0:18:98:12:34:56",
      rssi: -61,
      sensor: "b8:27:eb:00:00:01",
      local: false,
      randomized: false,
      vendor: "Apple, Inc.",
      flags: 0,
    });
    expect(Object.keys(s)).toStrictEqual(SIGNAL_KEYS);
  });

  it("keeps the vendor key (undefined) for a randomised device, and the service flag as sent", () => {
    const s = asSignal(decodeSignal(raw({ device_id: "DA-A1-19-00-00-01", local: true })));
    expect(Object.keys(s)).toStrictEqual(SIGNAL_KEYS);
    expect(s.device).toBe("da:a1:19:00:00:01");
    expect(s.vendor).toBeUndefined();
    expect(s.randomized).toBe(true);
    expect(s.local).toBe(true);
  });

  it("normalises both MACs", () => {
    const s = asSignal(decodeSignal(raw({ device_id: "F018.9812.3456", square_mac: "B827EB000001" })));
    expect(s.device).toBe("f0:18:98:12:34:56");
    expect(s.sensor).toBe("b8:27:eb:00:00:01");
  });

  it("converts ts of any unit to whole epoch ms", () => {
    const seconds = Math.floor(TIME / 1000);
    expect(asSignal(decodeSignal(raw({ ts: seconds }))).time).toBe(seconds * 1000);
    expect(asSignal(decodeSignal(raw({ ts: TIME * 1000 + 999 }))).time).toBe(TIME);
    expect(asSignal(decodeSignal(raw({ ts: TIME * 1e6 }))).time).toBe(TIME);
    expect(asSignal(decodeSignal(raw({ ts: String(TIME) }))).time).toBe(TIME);
    // an explicit unit overrides the magnitude
    expect(asSignal(decodeSignal(raw({ ts: 1e12 }), { tsUnit: "s" })).time).toBe(1e15);
    expect(asSignal(decodeSignal(raw({ ts: 1e12 }))).time).toBe(1e12);
  });

  it("rejects a time before 2000 in any unit: a sensor clock that was never set", () => {
    for (const [ts, options] of [[5, {}], [5, { tsUnit: "ms" }], [946_684_799, {}], [TIME, { tsUnit: "us" }]] as const) {
      const bad = asInvalid(decodeSignal(raw({ ts }), options));
      expect(bad.reason).toBe("bad-ts");
      expect(bad.message).toContain("before 2000");
    }
    expect(asSignal(decodeSignal(raw({ ts: 946_684_800 }))).time).toBe(946_684_800_000);
  });

  it("accepts the RSSI range ends and skips vendors when asked", () => {
    expect(asSignal(decodeSignal(raw({ rssi: 0 }))).rssi).toBe(0);
    expect(asSignal(decodeSignal(raw({ rssi: -127 }))).rssi).toBe(-127);
    expect(asSignal(decodeSignal(raw(), { vendors: false })).vendor).toBeUndefined();
  });

  it("decodes any well-formed record, agreeing with independent computations", () => {
    const record = fc.record({
      shop: fc.integer({ min: 0, max: 1_000_000 }),
      time: fc.integer({ min: 946_684_800_000, max: 4_102_444_800_000 }),
      octets: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 6, maxLength: 6 }),
      rssi: fc.integer({ min: -127, max: 0 }),
      local: fc.boolean(),
    });
    fc.assert(
      fc.property(record, (r) => {
        const mac = r.octets.map((o) => o.toString(16).padStart(2, "0")).join(":");
        const rts = r.time.toString(16).padStart(16, "0");
        const s = decodeSignal({ row_key: `${r.shop}:${rts}`, device_id: mac.toUpperCase(), rssi: r.rssi, square_mac: mac, ts: r.time, local: r.local });
        if (isInvalidRecord(s)) return false;
        return (
          s.shopId === r.shop &&
          s.rts === rts &&
          s.time === r.time &&
          s.device === mac &&
          s.sensor === mac &&
          s.rssi === r.rssi &&
          s.local === r.local &&
          s.randomized === ((r.octets[0]! & 3) === 2) &&
          ((r.octets[0]! & 2) === 0 || s.vendor === undefined)
        );
      }),
    );
  });
});

describe("decodeSignal: invalid records", () => {
  const cases: Array<[unknown, string, string]> = [
    [null, "not-an-object", ""],
    [[raw()], "not-an-object", ""],
    ["row", "not-an-object", ""],
    [42, "not-an-object", ""],
    [{}, "missing-field", "row_key"],
    [raw({ row_key: undefined }), "missing-field", "row_key"],
    [raw({ row_key: 101 }), "wrong-type", "row_key"],
    [raw({ row_key: "101-0000019a9ec06410" }), "bad-row-key", "row_key"],
    [raw({ row_key: `x:${RTS}` }), "bad-row-key", "row_key"],
    [raw({ row_key: `101:${RTS.slice(0, -1)}g` }), "bad-row-key", "row_key"],
    [raw({ device_id: null }), "missing-field", "device_id"],
    [raw({ device_id: 42 }), "wrong-type", "device_id"],
    [raw({ device_id: "f0:18:98:12:34" }), "bad-mac", "device_id"],
    [raw({ rssi: undefined }), "missing-field", "rssi"],
    [raw({ rssi: "-61" }), "wrong-type", "rssi"],
    [raw({ rssi: -61.5 }), "wrong-type", "rssi"],
    [raw({ rssi: 1 }), "rssi-out-of-range", "rssi"],
    [raw({ rssi: -128 }), "rssi-out-of-range", "rssi"],
    [raw({ square_mac: [] }), "wrong-type", "square_mac"],
    [raw({ square_mac: "b8:27:eb:00:00:0z" }), "bad-mac", "square_mac"],
    [raw({ ts: undefined }), "missing-field", "ts"],
    [raw({ ts: true }), "wrong-type", "ts"],
    [raw({ ts: "12:00" }), "wrong-type", "ts"],
    [raw({ ts: -1 }), "bad-ts", "ts"],
    [raw({ ts: 1e300 }), "bad-ts", "ts"],
    [raw({ local: undefined }), "missing-field", "local"],
    [raw({ local: "false" }), "wrong-type", "local"],
    [raw({ local: 0 }), "wrong-type", "local"],
  ];
  for (const [input, reason, field] of cases) {
    it(`${JSON.stringify(input)?.slice(0, 70)} → ${reason} (${field || "record"})`, () => {
      const bad = asInvalid(decodeSignal(input));
      expect(bad.reason).toBe(reason);
      expect(bad.field).toBe(field);
      expect(bad.record).toBe(input);
      expect(bad.message.length).toBeGreaterThan(0);
    });
  }

  it("rejects another shop's record when a shop is requested", () => {
    const bad = asInvalid(decodeSignal(raw({ row_key: `102:${RTS}` }), { shopId: 101 }));
    expect(bad.reason).toBe("shop-mismatch");
    expect(bad.field).toBe("row_key");
    expect(isInvalidRecord(decodeSignal(raw(), { shopId: 101 }))).toBe(false);
  });

  it("never throws, and returns a Signal or an InvalidRecord, for arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.anything()), (x) => {
        const result = decodeSignal(x);
        return isInvalidRecord(result) ? INVALID_REASONS.includes(result.reason) && Object.is(result.record, x) : Object.keys(result).join() === SIGNAL_KEYS.join();
      }),
    );
  });

  it("never throws when any field of a good record is replaced by an arbitrary JSON value", () => {
    const fields = ["row_key", "device_id", "rssi", "square_mac", "ts", "local"];
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.jsonValue(), (field, value) => {
        const result = decodeSignal(raw({ [field]: value }));
        return !isInvalidRecord(result) || result.field === field;
      }),
    );
  });

  it("validates options eagerly", () => {
    expect(() => decodeSignal(raw(), { shopId: -1 })).toThrow(RangeError);
    expect(() => decodeSignal(raw(), { tsUnit: "h" as "s" })).toThrow(TypeError);
    expect(() => decodeSignal(raw(), { vendors: "yes" as unknown as boolean })).toThrow(TypeError);
    expect(() => new SignalDecoder({ tsToleranceMs: -1 })).toThrow(RangeError);
    expect(() => new SignalDecoder({ rtsCodec: {} as never })).toThrow(TypeError);
    expect(() => new SignalDecoder({ onInvalid: 5 as never })).toThrow(TypeError);
  });
});

describe("SignalDecoder: clockOffsetsMs", () => {
  it("puts a sensor whose clock runs ahead back on the others' clock, by its MAC in any form", () => {
    const decoder = new SignalDecoder({ clockOffsetsMs: { "B8-27-EB-00-00-01": 2_500, "b8:27:eb:00:00:02": 0 } });
    expect(decoder.decode(raw())!.time).toBe(TIME - 2_500);
    expect(decoder.decode(raw({ square_mac: "b8:27:eb:00:00:02" }))!.time).toBe(TIME);
    expect(decoder.decode(raw({ square_mac: "b8:27:eb:00:00:03" }))!.time).toBe(TIME);
    // The ts/RTS check compares the sensor's own two stamps, before the correction.
    expect(decoder.stats.tsRtsMismatch).toBe(0);
  });

  it("rejects offsets that are not whole ms of a MAC", () => {
    expect(() => new SignalDecoder({ clockOffsetsMs: { "not a mac": 5 } })).toThrow(RangeError);
    expect(() => new SignalDecoder({ clockOffsetsMs: { "b8:27:eb:00:00:01": 1.5 } })).toThrow(RangeError);
    expect(() => new SignalDecoder({ clockOffsetsMs: 5 as never })).toThrow(TypeError);
  });
});

describe("isInvalidRecord", () => {
  it("tells invalid records from signals and other values", () => {
    expect(isInvalidRecord(decodeSignal(null))).toBe(true);
    expect(isInvalidRecord(decodeSignal(raw()))).toBe(false);
    expect(isInvalidRecord({ reason: "nope", field: "" })).toBe(false);
    expect(isInvalidRecord(null)).toBe(false);
  });
});

describe("SignalDecoder", () => {
  it("returns signals, sends invalid records to onInvalid and counts them by reason", () => {
    const seen: InvalidRecord[] = [];
    const decoder = new SignalDecoder({ shopId: 101, onInvalid: (x) => seen.push(x) });
    const inputs = [raw(), null, raw({ rssi: 5 }), raw({ row_key: `7:${RTS}` }), raw({ device_id: "da:a1:19:00:00:01", local: true })];
    const out = decoder.decodeAll(inputs);
    expect(out.map((s) => s.device)).toStrictEqual(["f0:18:98:12:34:56", "da:a1:19:00:00:01"]);
    expect(seen.map((x) => x.reason)).toStrictEqual(["not-an-object", "rssi-out-of-range", "shop-mismatch"]);
    const stats = decoder.stats;
    expect(stats.decoded).toBe(2);
    expect(stats.invalid).toBe(3);
    expect(stats.invalidByReason).toStrictEqual({
      "not-an-object": 1,
      "missing-field": 0,
      "wrong-type": 0,
      "bad-row-key": 0,
      "bad-mac": 0,
      "rssi-out-of-range": 1,
      "shop-mismatch": 1,
      "bad-ts": 0,
      "not-json": 0,
    });
    expect(stats.randomized).toBe(1);
    expect(stats.localFlagMismatch).toBe(0);
    expect(stats.tsRtsMismatch).toBe(0);
  });

  it("counts the service local flag disagreeing with the MAC bit, keeping the flag", () => {
    const decoder = new SignalDecoder();
    const a = decoder.decode(raw({ local: true })); // universal MAC, flag says local
    const b = decoder.decode(raw({ device_id: "da:a1:19:00:00:01", local: false }));
    const c = decoder.decode(raw({ device_id: "03:00:00:00:00:01", local: true })); // local multicast: bit agrees
    expect([a?.local, b?.local, c?.local]).toStrictEqual([true, false, true]);
    expect(c?.randomized).toBe(false);
    expect(decoder.stats.localFlagMismatch).toBe(2);
    expect(decoder.stats.randomized).toBe(1);
    // The same finding rides on each signal, for the data-quality accumulator.
    expect([a, b, c].map((x) => (x!.flags! & SIGNAL_LOCAL_FLAG_MISMATCH) !== 0)).toStrictEqual([true, true, false]);
  });

  it("counts RTS/ts disagreement beyond the tolerance, under the chosen RTS codec", () => {
    const decoder = new SignalDecoder({ tsToleranceMs: 1000 });
    const decoded = [
      decoder.decode(raw()),
      decoder.decode(raw({ ts: TIME + 1000 })),
      decoder.decode(raw({ ts: TIME + 1001 })),
      decoder.decode(raw({ ts: Math.floor(TIME / 1000) })), // seconds: within a second of the RTS
    ];
    expect(decoder.stats.tsRtsMismatch).toBe(1);
    expect(decoded.map((x) => (x!.flags! & SIGNAL_TS_RTS_MISMATCH) !== 0)).toStrictEqual([false, false, true, false]);

    // A server whose RTS counts seconds: every record disagrees under the default codec…
    const secondsKey = `101:${Math.floor(TIME / 1000).toString(16).padStart(16, "0")}`;
    const byDefault = new SignalDecoder();
    byDefault.decode(raw({ row_key: secondsKey }));
    expect(byDefault.stats.tsRtsMismatch).toBe(1);
    // …and none under the seconds codec, nor with a custom codec object doing the same.
    const bySeconds = new SignalDecoder({ rtsCodec: secondsRts });
    bySeconds.decode(raw({ row_key: secondsKey }));
    expect(bySeconds.stats.tsRtsMismatch).toBe(0);
    const custom = new SignalDecoder({ rtsCodec: { encode: (ms) => secondsRts.encode(ms), decode: (r) => secondsRts.decode(r) } });
    custom.decode(raw({ row_key: secondsKey }));
    expect(custom.stats.tsRtsMismatch).toBe(0);
    // Infinity turns the check off.
    const off = new SignalDecoder({ tsToleranceMs: Infinity });
    off.decode(raw({ row_key: secondsKey }));
    expect(off.stats.tsRtsMismatch).toBe(0);
  });

  it("counts universal MACs with no vendor, not local ones", () => {
    const decoder = new SignalDecoder();
    decoder.decode(raw({ device_id: "70:b3:d5:00:00:01" })); // subdivided block, no assignment
    decoder.decode(raw({ device_id: "da:a1:19:00:00:01", local: true }));
    decoder.decode(raw());
    expect(decoder.stats.vendorless).toBe(1);
    const off = new SignalDecoder({ vendors: false });
    off.decode(raw());
    expect(off.stats.vendorless).toBe(0);
  });

  it("applies the same rule as decodeSignal to arbitrary input, and never throws", () => {
    const decoder = new SignalDecoder();
    let invalid = 0;
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.constant(raw()), fc.constant(raw({ rssi: 3 }))), (x) => {
        const one = decodeSignal(x);
        const two = decoder.decode(x);
        if (isInvalidRecord(one)) {
          invalid++;
          return two === undefined;
        }
        return JSON.stringify(two) === JSON.stringify(one);
      }),
    );
    expect(decoder.stats.invalid).toBe(invalid);
  });

  it("returns a fresh stats snapshot", () => {
    const decoder = new SignalDecoder();
    const before = decoder.stats;
    decoder.decode(raw());
    expect(before.decoded).toBe(0);
    expect(decoder.stats.decoded).toBe(1);
  });
});

describe("decodeSignal: a service that spells its RTS in uppercase (%016X)", () => {
  it("decodes the record as its lowercase twin, RTS in footfall's lowercase spelling", () => {
    const lower = decodeSignal(raw());
    const upper = decodeSignal(raw({ row_key: `101:${RTS.toUpperCase()}` }));
    expect(upper).toStrictEqual(lower);
    expect((upper as { rts: string }).rts).toBe(RTS);
  });
});
