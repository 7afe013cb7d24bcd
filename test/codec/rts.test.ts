import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compareRts,
  inferRtsCodec,
  isRts,
  microsRts,
  millisRts,
  millisToRts,
  nanosRts,
  rtsCodecForUnit,
  rtsToMillis,
  rtsValueAt,
  RTS_UPPERCASE,
  secondsRts,
  stepRts,
  type PresetRtsCodec,
} from "../../src/codec/rts.ts";
import { isDecodeError } from "../../src/errors/DecodeError.ts";
import { canonicalRts } from "../../src/codec/rtsSpelling.ts";

const hexChar = fc.constantFrom(..."0123456789abcdef");
/** Any RTS: 16 lowercase hex digits over the whole 64-bit range. */
const anyRts = fc.string({ unit: hexChar, minLength: 16, maxLength: 16 });
/** Values a double holds exactly, as RTS. */
const safeValue = fc.bigInt({ min: 0n, max: BigInt(Number.MAX_SAFE_INTEGER) });
const hex16 = (v: bigint): string => v.toString(16).padStart(16, "0");

/** A codec's integer range that decodes to an exactly representable ms value for round trips. */
const presets: ReadonlyArray<[string, PresetRtsCodec, fc.Arbitrary<number>]> = [
  // whole ms up to 2^53
  ["ms", millisRts, fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })],
  // whole seconds, as ms (≤ 2^53 / 1000 seconds keeps ×1000 exact)
  ["s", secondsRts, fc.integer({ min: 0, max: Math.floor(Number.MAX_SAFE_INTEGER / 1000) }).map((s) => s * 1000)],
  // µs: ms with three decimals, as far as a double resolves them (to year ~2112)
  ["us", microsRts, fc.integer({ min: 0, max: 4_500_000_000_000_000 }).map((us) => us / 1000)],
  // ns: whole ms while ns stay below 2^53 (then decode is exact)
  ["ns", nanosRts, fc.integer({ min: 0, max: Math.floor(Number.MAX_SAFE_INTEGER / 1e6) })],
];

describe("RTS presets", () => {
  it("round-trip epoch milliseconds: 2025 in ms", () => {
    const ms = Date.UTC(2025, 10, 20, 9, 30);
    expect(isRts(millisToRts(ms))).toBe(true);
    expect(rtsToMillis(millisToRts(ms))).toBe(ms);
    // The RTS of a time is its ms count in hex, independently computed here.
    expect(millisToRts(ms)).toBe(ms.toString(16).padStart(16, "0"));
  });

  for (const [unit, codec, times] of presets) {
    it(`${unit}: decode(encode(ms)) === ms for representable times`, () => {
      fc.assert(fc.property(times, (ms) => codec.decode(codec.encode(ms)) === ms));
    });
    it(`${unit}: encode(decode(rts)) === rts for RTS below 2^53`, () => {
      fc.assert(
        fc.property(safeValue, (v) => {
          // ns above 2^53 ns and s above 2^53 / 1000 are lossy as ms by nature; keep to the exact range.
          if (unit === "s" && v > BigInt(Math.floor(Number.MAX_SAFE_INTEGER / 1000))) return true;
          if (unit === "us" && v > 4_500_000_000_000_000n) return true;
          if (unit === "ns" && v > 4_500_000_000_000n) return true;
          return codec.encode(codec.decode(hex16(v))) === hex16(v);
        }),
      );
    });
    it(`${unit}: encode always gives an RTS, and decode(encode(ms)) ≤ ms (truncation)`, () => {
      fc.assert(
        // Truncation is exact while the unit count is below 2^53 (9.007e15): up to ~9e9 ms for ns,
        // ~9e12 ms (year 2255) for µs, beyond 1e15 ms for ms and s.
        fc.property(fc.double({ min: 0, max: unit === "ns" ? 9e9 : unit === "us" ? 9e12 : 1e15, noNaN: true }), (ms) => {
          const rts = codec.encode(ms);
          return isRts(rts) && codec.decode(rts) <= ms;
        }),
      );
    });
    it(`${unit}: is the preset for its unit`, () => {
      expect(rtsCodecForUnit(codec.unit)).toBe(codec);
      expect(codec.unit).toBe(unit);
    });
  }

  it("seconds truncate toward −∞ and scale by 1000 exactly", () => {
    expect(secondsRts.encode(1_700_000_000_999)).toBe(hex16(1_700_000_000n));
    expect(secondsRts.decode(hex16(1_700_000_000n))).toBe(1_700_000_000_000);
    // 1001 ms × 0.001 would be 1.0009999999999999 and truncate fine, but 3000 ms must give 3 s exactly.
    expect(secondsRts.encode(3000)).toBe(hex16(3n));
  });

  it("ns: encodes any time up to 2^64 ns (year 2554) to an RTS within a µs, or a double's precision", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1.8e13, noNaN: true }), (ms) => {
        const rts = nanosRts.encode(ms);
        // Beyond ~4.5e12 ms (year 2112) a double's step between epoch-ms values exceeds a µs.
        return isRts(rts) && Math.abs(nanosRts.decode(rts) - ms) <= Math.max(1e-3, 2 * Number.EPSILON * ms);
      }),
    );
  });

  it("decodes the whole 64-bit range to a finite number without NaN", () => {
    fc.assert(
      fc.property(anyRts, (rts) => {
        for (const [, codec] of presets) {
          const ms = codec.decode(rts);
          if (!Number.isFinite(ms) || ms < 0) return false;
        }
        return true;
      }),
    );
    expect(millisRts.decode("ffffffffffffffff")).toBe(2 ** 64);
  });

  it("refuses times it cannot encode with a RangeError/TypeError", () => {
    for (const bad of [-1, Number.NaN, Infinity, 2 ** 64]) expect(() => millisRts.encode(bad)).toThrow(RangeError);
    expect(() => nanosRts.encode(2 ** 64 / 1e6)).toThrow(RangeError);
    expect(() => millisRts.encode("5" as unknown as number)).toThrow(TypeError);
  });
});

describe("RTS order", () => {
  it("string order equals numeric order", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (a, b) => {
        const numeric = a < b ? -1 : a > b ? 1 : 0;
        return compareRts(hex16(a), hex16(b)) === numeric;
      }),
    );
  });
  it("encode is monotonic in time", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 52 }), fc.integer({ min: 0, max: 2 ** 52 }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        return compareRts(millisToRts(lo), millisToRts(hi)) <= 0;
      }),
    );
  });
});

describe("isRts", () => {
  it("accepts exactly 16 lowercase hex digits", () => {
    fc.assert(fc.property(anyRts, (rts) => isRts(rts)));
    expect(isRts("0000019A9EC06410")).toBe(false);
    expect(isRts("0000019a9ec0641")).toBe(false);
    expect(isRts("0000019a9ec064100")).toBe(false);
    expect(isRts("0000019a9ec0641g")).toBe(false);
    expect(isRts(" 000019a9ec06410")).toBe(false);
    expect(isRts(1234)).toBe(false);
  });
  it("agrees with the regular expression on arbitrary strings", () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEFg"), maxLength: 17 })), (s) => isRts(s) === /^[0-9a-f]{16}$/.test(s)));
  });
});

describe("rtsValueAt", () => {
  it("reads an RTS's value in place", () => {
    fc.assert(
      fc.property(safeValue, fc.nat(4), fc.nat(4), (v, before, after) => {
        const text = `${"x".repeat(before)}${hex16(v)}${"y".repeat(after)}`;
        expect(rtsValueAt(text, before)).toBe(Number(v));
      }),
    );
  });
  it("gives −1 for anything but 16 hex digits, RTS_UPPERCASE for uppercase ones", () => {
    expect(rtsValueAt("101:00000000000000FF", 4)).toBe(RTS_UPPERCASE);
    expect(rtsValueAt("101:00000000000000fg", 4)).toBe(-1);
  });
  it("tells exactly the 16-hex-digit texts with an uppercase digit, whose lowercase twin they name", () => {
    const unit = fc.constantFrom(..."0123456789abcdefABCDEFg");
    fc.assert(
      fc.property(fc.string({ unit, minLength: 16, maxLength: 16 }), (text) => {
        const v = rtsValueAt(text, 0);
        if (/^[0-9a-f]{16}$/.test(text)) expect(v).toBe(Number(BigInt(`0x${text}`)));
        else if (/^[0-9a-fA-F]{16}$/.test(text)) {
          expect(v).toBe(RTS_UPPERCASE);
          expect(canonicalRts(text)).toBe(text.toLowerCase());
          expect(rtsValueAt(text.toLowerCase(), 0)).toBe(Number(BigInt(`0x${text}`)));
        } else {
          expect(v).toBe(-1);
          expect(canonicalRts(text)).toBeUndefined();
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("stepRts", () => {
  it("steps exactly beyond 2^53 and clamps at both ends", () => {
    expect(stepRts("ffffffffffffffff", -1)).toBe("fffffffffffffffe");
    expect(stepRts("ffffffffffffffff", 1)).toBe("ffffffffffffffff");
    expect(stepRts("0000000000000000", -1)).toBe("0000000000000000");
    expect(stepRts("00000000000000ff", 1)).toBe("0000000000000100");
  });
  it("matches BigInt arithmetic", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.integer({ min: -1000, max: 1000 }), (v, d) => {
        let expected = v + BigInt(d);
        if (expected < 0n) expected = 0n;
        if (expected > (1n << 64n) - 1n) expected = (1n << 64n) - 1n;
        return stepRts(hex16(v), d) === hex16(expected);
      }),
    );
  });
  it("rejects a fractional delta with a RangeError", () => {
    expect(() => stepRts("0000000000000001", 0.5)).toThrow(RangeError);
  });
});

describe("inferRtsCodec", () => {
  it("recovers the unit a server used, from a record's known time", () => {
    fc.assert(
      fc.property(
        // 1973…2100, in whole µs, and the preset the "server" used
        fc.integer({ min: 100_000_000_000_000, max: 4_102_444_800_000_000 }),
        fc.constantFrom(millisRts, secondsRts, microsRts, nanosRts),
        (us, server) => {
          const tsMs = us / 1000;
          return inferRtsCodec(server.encode(tsMs), tsMs) === server;
        },
      ),
    );
  });
  it("is undefined for a malformed RTS or a non-finite time", () => {
    expect(inferRtsCodec("nope", 0)).toBeUndefined();
    expect(inferRtsCodec("0000000000000001", Number.NaN)).toBeUndefined();
  });
  it("prefers the default when every reading is equally close", () => {
    expect(inferRtsCodec("0000000000000000", 1_700_000_000_000)).toBe(millisRts);
  });
});

describe("no untyped throws", () => {
  const decoders: ReadonlyArray<[string, (x: unknown) => unknown]> = [
    ["rtsToMillis", (x) => rtsToMillis(x as string)],
    ["secondsRts.decode", (x) => secondsRts.decode(x as string)],
    ["nanosRts.decode", (x) => nanosRts.decode(x as string)],
    ["stepRts", (x) => stepRts(x as string, -1)],
    ["isRts", (x) => isRts(x)],
    ["inferRtsCodec", (x) => inferRtsCodec(x as string, 1)],
  ];
  for (const [name, fn] of decoders) {
    it(`${name} throws only DecodeError on arbitrary input`, () => {
      fc.assert(
        fc.property(fc.oneof(fc.string(), fc.jsonValue(), anyRts), (x) => {
          try {
            fn(x);
            return true;
          } catch (error) {
            return isDecodeError(error);
          }
        }),
      );
    });
  }
  it("encoders throw only their own TypeError/RangeError for arbitrary input", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (x) => {
        try {
          millisToRts(x as number);
          microsRts.encode(x as number);
          return true;
        } catch (error) {
          return (error instanceof RangeError || error instanceof TypeError) && error.message.startsWith("RTS:");
        }
      }),
    );
  });
});
