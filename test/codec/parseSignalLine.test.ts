/**
 * parseSignalLine must be indistinguishable from JSON.parse for what the decoder reads: for any
 * string, the same six service fields (Object.is-equal, so −0, big and rounded numbers count),
 * the same decoder outcome, and the same SyntaxError when the line is not JSON. Lines of the
 * common shape must not reach JSON.parse at all (a spy counts its calls), or the fast path
 * would be dead code that the comparison could not notice.
 */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { decodeSignal, isInvalidRecord } from "../../src/codec/decodeSignal.ts";
import { parseSignalLine } from "../../src/codec/parseSignalLine.ts";
import { createWorld } from "../../src/sim/createWorld.ts";

const FIELDS = ["row_key", "device_id", "rssi", "square_mac", "ts", "local"] as const;

/** A value as a string that tells apart everything Object.is does (−0, NaN-free JSON values). */
function show(value: unknown): string {
  if (Object.is(value, -0)) return "number:-0";
  return `${typeof value}:${JSON.stringify(value)}`;
}

/** What the decoder can see of a parse result: the six fields if an object, else the value. */
function visible(value: unknown): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [`not an object ${show(value)}`];
  const record = value as Record<string, unknown>;
  return FIELDS.map((f) => `${f} ${f in record ? show(record[f]) : "absent"}`);
}

/** The decoder's verdict, without the raw record it echoes back. */
function decoded(value: unknown): unknown {
  const result = decodeSignal(value);
  if (isInvalidRecord(result)) return { reason: result.reason, field: result.field, message: result.message };
  return result;
}

type Outcome = { readonly fields: string[]; readonly decoded: unknown } | { readonly error: string };

function outcome(parse: (line: string) => unknown, line: string): Outcome {
  let value: unknown;
  try {
    value = parse(line);
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
  return { fields: visible(value), decoded: decoded(value) };
}

let parseSpy: MockInstance<typeof JSON.parse>;
beforeEach(() => {
  parseSpy = vi.spyOn(JSON, "parse");
});
afterEach(() => {
  parseSpy.mockRestore();
});

/** parseSignalLine's outcome and whether it fell back to JSON.parse. */
function fast(line: string): { outcome: Outcome; fellBack: boolean } {
  const before = parseSpy.mock.calls.length;
  const result = outcome(parseSignalLine, line);
  return { outcome: result, fellBack: parseSpy.mock.calls.length > before };
}

function reference(line: string): Outcome {
  return outcome((l) => JSON.parse(l) as unknown, line);
}

// --- lines of the common shape -------------------------------------------------------------

/** Characters a common-shape string may hold: no quote, backslash or control character. */
const plainChar = fc.oneof(
  fc.constantFrom(..."0123456789abcdef:-ABCDEF .,!#/~é€ü漢"),
  fc.integer({ min: 0x20, max: 0xffff }).filter((c) => c !== 0x22 && c !== 0x5c).map((c) => String.fromCharCode(c)),
);
const plainString = fc.oneof(
  fc.string({ unit: plainChar, maxLength: 30 }),
  fc.constant("f0:18:98:12:34:56"),
  fc.constant("101:0000019a9ec06410"),
);
const mac = fc
  .array(fc.integer({ min: 0, max: 255 }), { minLength: 6, maxLength: 6 })
  .map((b) => b.map((x) => x.toString(16).padStart(2, "0")).join(":"));
/** Integer texts as JSON writes them: small, safe, beyond 2^53, huge, and −0. */
const integerText = fc.oneof(
  fc.integer({ min: -200, max: 200 }).map(String),
  fc.integer().map(String),
  fc.maxSafeInteger().map(String),
  fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
  fc.constantFrom("0", "-0", "1763600000016", "1763600000016000", "1763600000016000000", "18446744073709551615", "9007199254740993"),
);
const tailValue = fc.oneof(
  plainString.map((s) => `"${s}"`),
  integerText,
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
  fc.constantFrom("true", "false", "null", "1.5", "-0.0", "1e3", "2E-7", "1.25e+10"),
);
const tailKey = fc.oneof(
  fc.constantFrom("shopId", "rts", "time", "device", "sensor", "randomized", "vendor", "__proto__", "", "x"),
  fc.string({ unit: plainChar, maxLength: 8 }).filter((k) => !(FIELDS as readonly string[]).includes(k)),
);

/** A JSON string of plain characters, written raw (JSON.stringify would escape lone surrogates). */
const q = (text: string): string => `"${text}"`;

/** Text of a common-shape line: the six fields in order with the right types, then extras. */
const commonShapeLine = fc
  .record({
    rowKey: plainString,
    device: fc.oneof(mac, plainString),
    rssi: integerText,
    sensor: fc.oneof(mac, plainString),
    ts: integerText,
    local: fc.boolean(),
    tail: fc.array(fc.tuple(tailKey, tailValue), { maxLength: 9 }),
  })
  .map(
    (r) =>
      `{"row_key":${q(r.rowKey)},"device_id":${q(r.device)},"rssi":${r.rssi},"square_mac":${q(r.sensor)},` +
      `"ts":${r.ts},"local":${r.local}${r.tail.map(([k, v]) => `,${q(k)}:${v}`).join("")}}`,
  );

// --- anything else ---------------------------------------------------------------------------

/** Any JSON value text, including escapes, unicode, lone surrogates, nesting and exponents. */
const anyValueText = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 12 }).map((s) => JSON.stringify(s)),
  integerText,
  fc.constantFrom("1e2", "-1E+2", "1.0", "-61.5", "01", "-", "+1", "0x10", '"\\u0041"', '"a\\"b"', '"\t"', "tru", "nul", "[]", "{}"),
);
const anyKey = fc.oneof(
  fc.constantFrom(...FIELDS),
  tailKey,
  fc.constantFrom("row_key ", "Row_key", "rowkey"),
).map((k) => JSON.stringify(k));
const whitespace = fc.constantFrom("", "", "", " ", "\t", "\n", "\r", "\u00a0", "\ufeff");

/**
 * Objects with the service's keys in any order, some missing, some repeated (JSON.parse takes
 * the last), values of any type, whitespace between tokens, and unusual texts for each.
 */
const anyObjectLine = fc
  .record({
    entries: fc.array(fc.tuple(anyKey, anyValueText), { maxLength: 16 }),
    order: fc.boolean(),
    ws: fc.array(whitespace, { minLength: 6, maxLength: 6 }),
  })
  .map(({ entries, order, ws }) => {
    const sorted = order ? [...entries].sort((a, b) => FIELDS.indexOf(JSON.parse(a[0]) as never) - FIELDS.indexOf(JSON.parse(b[0]) as never)) : entries;
    const [a, b, c, d, e, f] = ws as [string, string, string, string, string, string];
    return `${a}{${b}${sorted.map(([k, v]) => `${k}${c}:${d}${v}`).join(`${e},`)}}${f}`;
  });

/** A line with random edits: characters inserted, deleted or replaced, mostly JSON-ish ones. */
function perturbed(line: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const edit = fc.record({
    at: fc.nat(),
    kind: fc.constantFrom("insert", "delete", "replace"),
    char: fc.oneof(fc.constantFrom(..."{}[]\",:\\ \t0123456789-.eEtfnul\u0000\u001f\u2028"), fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c))),
  });
  return fc.tuple(line, fc.array(edit, { minLength: 1, maxLength: 3 })).map(([text, edits]) => {
    let s = text;
    for (const { at, kind, char } of edits) {
      const i = s.length === 0 ? 0 : at % (s.length + 1);
      if (kind === "insert") s = s.slice(0, i) + char + s.slice(i);
      else if (kind === "delete") s = s.slice(0, i) + s.slice(i + 1);
      else s = s.slice(0, i) + char + s.slice(i + 1);
    }
    return s;
  });
}

describe("parseSignalLine: same as JSON.parse for what the decoder reads", () => {
  it("reads lines of the common shape without JSON.parse, with JSON.parse's values", () => {
    fc.assert(
      fc.property(commonShapeLine, (line) => {
        const { outcome: got, fellBack } = fast(line);
        expect(got).toEqual(reference(line));
        expect(fellBack).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it("agrees on objects with keys in any order, missing, repeated, any value types and whitespace", () => {
    fc.assert(
      fc.property(anyObjectLine, (line) => {
        expect(fast(line).outcome).toEqual(reference(line));
      }),
      { numRuns: 3000 },
    );
  });

  it("agrees on perturbed lines (mostly not JSON: the same SyntaxError)", () => {
    fc.assert(
      fc.property(perturbed(fc.oneof(commonShapeLine, anyObjectLine)), (line) => {
        expect(fast(line).outcome).toEqual(reference(line));
      }),
      { numRuns: 4000 },
    );
  });

  it("agrees on any string at all", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.json()), (line) => {
        expect(fast(line).outcome).toEqual(reference(line));
      }),
      { numRuns: 2000 },
    );
  });
});

// --- known answers ---------------------------------------------------------------------------

const RAW =
  '{"row_key":"101:0000019a9ec06410","device_id":"f0:18:98:12:34:56","rssi":-61,"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false}';
const BACKFILL = `${RAW.slice(0, -1)},"shopId":101,"rts":"0000019a9ec06410","time":1763600000016,"device":"f0:18:98:12:34:56","sensor":"b8:27:eb:00:00:01","randomized":false,"vendor":"Apple, Inc."}`;
const SIX = {
  row_key: "101:0000019a9ec06410",
  device_id: "f0:18:98:12:34:56",
  rssi: -61,
  square_mac: "b8:27:eb:00:00:01",
  ts: 1763600000016,
  local: false,
};

describe("parseSignalLine: known answers", () => {
  it("reads a raw service record and a backfill line on the fast path, keeping the six fields", () => {
    for (const line of [RAW, BACKFILL]) {
      const { fellBack } = fast(line);
      expect(fellBack).toBe(false);
      expect(parseSignalLine(line)).toStrictEqual(SIX);
    }
  });

  it("reads every line `footfall signals backfill` would write for a simulated shop-day on the fast path", () => {
    const world = createWorld({ seed: 3, shops: 1 });
    let n = 0;
    for (const raw of world.rawSignals(world.shops[0]!.id)) {
      const s = decodeSignal(raw);
      if (isInvalidRecord(s)) continue;
      // The shape of src/cli/signals.ts's ndjsonLine: the service's fields, then the decoded ones.
      const line = JSON.stringify({ ...raw, shopId: s.shopId, rts: s.rts, time: s.time, device: s.device, sensor: s.sensor, randomized: s.randomized, vendor: s.vendor ?? null });
      const got = fast(line);
      expect(got.fellBack).toBe(false);
      expect(got.outcome).toEqual(reference(line));
      if (++n === 2000) break;
    }
    expect(n).toBe(2000);
  });

  it("decodes escapes as JSON.parse does", () => {
    const line = RAW.replace('"f0:18:98:12:34:56"', '"\\u0066\\u0030:18:98:12:34:56"');
    expect(fast(line).fellBack).toBe(true);
    expect((parseSignalLine(line) as typeof SIX).device_id).toBe("f0:18:98:12:34:56");
  });

  it("takes the last of repeated keys, as JSON.parse does", () => {
    expect((parseSignalLine(`${RAW.slice(0, -1)},"rssi":-70}`) as typeof SIX).rssi).toBe(-70);
    expect((parseSignalLine(`${BACKFILL.slice(0, -1)},"local":true}`) as typeof SIX).local).toBe(true);
  });

  it("keeps −0 and rounds long integers as JSON.parse does", () => {
    expect(Object.is((parseSignalLine(RAW.replace('"rssi":-61', '"rssi":-0')) as typeof SIX).rssi, -0)).toBe(true);
    const ns = RAW.replace('"ts":1763600000016', '"ts":1763600000016000123');
    expect((parseSignalLine(ns) as typeof SIX).ts).toBe(1763600000016000123);
    expect((parseSignalLine(RAW.replace('"ts":1763600000016', '"ts":9007199254740993')) as typeof SIX).ts).toBe(9007199254740992);
  });

  it("passes other types and forms through JSON.parse, so the decoder rejects them for the same reason", () => {
    const float = parseSignalLine(RAW.replace('"rssi":-61', '"rssi":-61.5'));
    expect((float as typeof SIX).rssi).toBe(-61.5);
    expect((decodeSignal(float) as { reason: string }).reason).toBe("wrong-type");
    const quoted = parseSignalLine(RAW.replace('"ts":1763600000016', '"ts":"1763600000016"'));
    expect((quoted as { ts: unknown }).ts).toBe("1763600000016");
    const spaced = parseSignalLine(RAW.replaceAll(",", ", "));
    expect(spaced).toStrictEqual(SIX);
    const missing = parseSignalLine(RAW.replace(',"local":false', ""));
    expect((decodeSignal(missing) as { reason: string }).reason).toBe("missing-field");
  });

  it("throws JSON.parse's SyntaxError for a line that is not JSON", () => {
    for (const bad of ["{oops", "", RAW.slice(0, -1), `${RAW}x`, RAW.replace("-61", "-061"), RAW.replace("f0:18", "f0\u0001:18"), `${RAW.slice(0, -1)},}`]) {
      let expected = "";
      try {
        JSON.parse(bad);
      } catch (error) {
        expected = (error as Error).message;
      }
      expect(expected).not.toBe("");
      expect(() => parseSignalLine(bad)).toThrow(new SyntaxError(expected));
    }
  });
});
