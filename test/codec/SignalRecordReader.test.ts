/**
 * SignalRecordReader, the byte reader of signal records, must never contradict the general path
 * (`JSON.parse` + `SignalDecoder.decode`): whenever it takes a record, the bytes it took are a JSON
 * object that the decoder turns into the same signal, or rejects where `decodeFields` refuses — for
 * any bytes. And it must take the records of the usual shape (else the fast path would be dead code
 * that the comparison could not notice): the service's raw records, `footfall signals backfill`'s
 * lines, MACs in every layout and case, uppercase RTS, ts in s, ms and µs.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SignalDecoder } from "../../src/codec/decodeSignal.ts";
import type { SignalFields } from "../../src/codec/SignalDecoderCore.ts";
import { toNormalMac } from "../../src/codec/mac.ts";
import { rtsValueAt } from "../../src/codec/rts.ts";
import { SignalRecordReader } from "../../src/codec/SignalRecordReader.ts";
import type { Signal } from "../../src/codec/Signal.ts";
import { createWorld } from "../../src/sim/createWorld.ts";

const FIELDS = ["row_key", "device_id", "rssi", "square_mac", "ts", "local"] as const;

/** One reader for the file, as a line reader keeps one: the keys it learns carry from test to test. */
const reader = new SignalRecordReader();

/**
 * The reader on `bytes` (copied into its input) from `start`, with the limit `limit`. The input's
 * bytes after the limit stay what they are, and after the input those of earlier lines remain:
 * reading either would be seen.
 */
function readBytes(bytes: Uint8Array, start: number, limit: number, out: SignalFields): number {
  reader.input(bytes.length).set(bytes);
  return reader.read(start, limit, out);
}

const fresh = (): SignalFields => ({ shopId: 0, rts: "", rtsValue: 0, device: "", rssi: 0, sensor: "", ts: 0, local: false });

/** What the byte reader and the general path make of `line`; `taken` is false when the reader left it to JSON.parse. */
function compare(line: string | Uint8Array, shopId?: number): { taken: boolean; end: number; length: number } {
  const bytes = typeof line === "string" ? Buffer.from(line, "utf8") : line;
  const fields = fresh();
  const end = readBytes(bytes, 0, bytes.length, fields);
  if (end < 0) return { taken: false, end, length: bytes.length };
  // What it took must be JSON, and the general path must agree on it: same signal, counted alike,
  // or a rejection where decodeFields refused.
  const text = Buffer.from(bytes.subarray(0, end)).toString("utf8");
  const raw: unknown = JSON.parse(text);
  const fast = new SignalDecoder({ shopId });
  const general = new SignalDecoder({ shopId });
  // The RTS's value is the codec's (rtsValueAt's one rounding above 2^53), its text lowercase.
  expect(fields.rtsValue).toBe(rtsValueAt(fields.rts, 0));
  const a: Signal | undefined = fast.decodeFields(fields);
  const b = general.decode(raw);
  if (a === undefined) {
    expect(b).toBeUndefined();
  } else {
    expect({ ...a }).toEqual({ ...b });
    expect(fast.stats).toEqual(general.stats);
  }
  return { taken: true, end, length: bytes.length };
}

// --- lines of the usual shape ------------------------------------------------------------------

/** Characters a plain string may hold: no quote, backslash or control character. */
const plainChar = fc.oneof(
  fc.constantFrom(..."0123456789abcdef:-ABCDEF .,!#/~é€ü漢"),
  fc.integer({ min: 0x20, max: 0xffff }).filter((c) => c !== 0x22 && c !== 0x5c).map((c) => String.fromCharCode(c)),
);
const plainString = fc.oneof(fc.string({ unit: plainChar, maxLength: 30 }), fc.constant("f0:18:98:12:34:56"), fc.constant("101:0000019a9ec06410"));
const octets = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 6, maxLength: 6 }).map((b) => b.map((x) => x.toString(16).padStart(2, "0")));
/** A MAC in every layout toNormalMac accepts, either case. */
const goodMac = fc
  .tuple(octets, fc.constantFrom("colon", "colon", "colon", "dash", "dot", "bare"), fc.boolean())
  .map(([o, layout, upper]) => {
    const text = layout === "colon" ? o.join(":") : layout === "dash" ? o.join("-") : layout === "dot" ? `${o[0]}${o[1]}.${o[2]}${o[3]}.${o[4]}${o[5]}` : o.join("");
    return upper ? text.toUpperCase() : text;
  });
const hex = (n: number): fc.Arbitrary<string> => fc.array(fc.constantFrom(..."0123456789abcdefABCDEF"), { minLength: n, maxLength: n }).map((d) => d.join(""));
const goodRowKey = fc.tuple(fc.constantFrom("101", "0101", "7", "0", "123456789012345"), hex(16)).map(([s, r]) => `${s}:${r}`);
/** Integer texts as JSON writes them: small, safe, beyond 2^53, huge, and −0. */
const integerText = fc.oneof(
  fc.integer({ min: -200, max: 200 }).map(String),
  fc.integer().map(String),
  fc.maxSafeInteger().map(String),
  fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
  fc.constantFrom("0", "-0", "1763600000", "1763600000016", "1763600000016000", "1763600000016000000", "9007199254740991", "9007199254740992", "9007199254740993", "18446744073709551615"),
);
const goodTs = fc.oneof(
  fc.integer({ min: 946_684_800, max: 2_000_000_000 }).map(String),
  fc.integer({ min: 946_684_800_000, max: 2_000_000_000_000 }).map(String),
  fc.integer({ min: 946_684_800_000, max: 2_000_000_000_000 }).map((ms) => String(ms * 1000 + 123)),
);
const tailValue = fc.oneof(
  plainString.map((s) => `"${s}"`),
  integerText,
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
  fc.constantFrom("true", "false", "null", "1.5", "-0.0", "1e3", "2E-7", "1.25e+10", "0.5E-0"),
);
const tailKey = fc.oneof(
  fc.constantFrom("shopId", "rts", "time", "device", "sensor", "randomized", "vendor", "__proto__", "", "x", "tsx", "rssi2", "locals"),
  fc.string({ unit: plainChar, maxLength: 8 }).filter((k) => !(FIELDS as readonly string[]).includes(k)),
);

/** A JSON string of plain characters, written raw (JSON.stringify would escape lone surrogates). */
const q = (text: string): string => `"${text}"`;

/** A record of the usual shape with values the decoder's syntax checks accept (the reader must take it). */
const usualLine = fc
  .record({
    rowKey: goodRowKey,
    device: goodMac,
    rssi: fc.integer({ min: -140, max: 10 }).map(String),
    sensor: goodMac,
    ts: goodTs,
    local: fc.boolean(),
    tail: fc.array(fc.tuple(tailKey, tailValue), { maxLength: 9 }),
  })
  .map(
    (r) =>
      `{"row_key":${q(r.rowKey)},"device_id":${q(r.device)},"rssi":${r.rssi},"square_mac":${q(r.sensor)},` +
      `"ts":${r.ts},"local":${r.local}${r.tail.map(([k, v]) => `,${q(k)}:${v}`).join("")}}`,
  );

/**
 * The usual shape with any plain strings and integers in its fields, and further keys that may
 * repeat a service key (JSON.parse keeps the last): the reader may or may not take it.
 */
const shapedLine = fc
  .record({
    rowKey: fc.oneof(goodRowKey, plainString),
    device: fc.oneof(goodMac, plainString),
    rssi: integerText,
    sensor: fc.oneof(goodMac, plainString),
    ts: fc.oneof(goodTs, integerText),
    local: fc.boolean(),
    tail: fc.array(fc.tuple(fc.oneof({ weight: 4, arbitrary: tailKey }, fc.constantFrom(...FIELDS)), tailValue), { maxLength: 9 }),
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
const anyKey = fc.oneof(fc.constantFrom(...FIELDS), tailKey, fc.constantFrom("row_key ", "Row_key", "rowkey")).map((k) => JSON.stringify(k));
const whitespace = fc.constantFrom("", "", "", " ", "\t", "\n", "\r", "\u00a0", "\ufeff");

/** Objects with the service's keys in any order, some missing, some repeated, values of any type, whitespace. */
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

/** Bytes of a line with a broken UTF-8 sequence or a stray byte spliced in anywhere. */
const brokenBytes = fc
  .tuple(fc.oneof(usualLine, shapedLine), fc.nat(), fc.constantFrom<number[]>([0xe4, 0xb8], [0xff], [0xc3], [0x80, 0x80], [0x00], [0x22], [0x5c], [0x7f]))
  .map(([line, at, bad]) => {
    const bytes = [...Buffer.from(line, "utf8")];
    const i = at % (bytes.length + 1);
    return Uint8Array.from([...bytes.slice(0, i), ...bad, ...bytes.slice(i)]);
  });

describe("SignalRecordReader: never contradicts JSON.parse and the decoder", () => {
  it("takes every record of the usual shape, whole, with the general path's signal or rejection", () => {
    fc.assert(
      fc.property(usualLine, fc.constantFrom(undefined, 101), (line, shopId) => {
        const got = compare(line, shopId);
        expect(got.taken).toBe(true);
        expect(got.end).toBe(got.length);
      }),
      { numRuns: 4000 },
    );
  });

  it("agrees wherever it takes a record of that shape with any strings and integers", () => {
    fc.assert(
      fc.property(shapedLine, (line) => void compare(line)),
      { numRuns: 4000 },
    );
  });

  it("agrees on runs of records whose further keys repeat, vary and nearly repeat a service key (the keys it learns)", () => {
    // Keys that share their start with one another or with a service key: a learned key must
    // match whole, and never stand for a service key.
    const nearKey = fc.constantFrom("shopId", "shopIdx", "ts", "tsx", "t", "rssi", "rssi2", "rss", "local", "locals", "row_key", "row_keys", "vendor", "a", "abcdefghijkl", "abcdefghijklm");
    const tail = fc.array(fc.tuple(nearKey, tailValue), { maxLength: 8 });
    const run = fc.array(fc.tuple(usualLine, tail, fc.boolean()), { minLength: 2, maxLength: 8 });
    fc.assert(
      fc.property(run, (lines) => {
        for (const [line, keys, again] of lines) {
          // A usual line's own tail, or the one drawn here (often the same keys as the line before).
          const text = again ? line : `${line.slice(0, line.indexOf(',"local":') + 9)}${line.includes('"local":true') ? "true" : "false"}${keys.map(([k, v]) => `,"${k}":${v}`).join("")}}`;
          compare(text);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("agrees on objects with keys in any order, missing, repeated, any value types and whitespace", () => {
    fc.assert(
      fc.property(anyObjectLine, (line) => void compare(line)),
      { numRuns: 3000 },
    );
  });

  it("agrees on perturbed lines and broken bytes (what it takes is JSON)", () => {
    fc.assert(
      fc.property(perturbed(fc.oneof(usualLine, shapedLine, anyObjectLine)), (line) => void compare(line)),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(brokenBytes, (bytes) => void compare(bytes)),
      { numRuns: 3000 },
    );
  });

  it("agrees on any string at all", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.json()), (line) => void compare(line)),
      { numRuns: 2000 },
    );
  });

  it("reads no byte at or after its limit: a record cut anywhere is not taken", () => {
    fc.assert(
      fc.property(usualLine, fc.nat(), (line, at) => {
        const bytes = Buffer.from(line, "utf8");
        const cut = at % bytes.length;
        // The bytes after the cut stay in the view: reading them would take the record.
        expect(readBytes(bytes, 0, cut, fresh())).toBe(-1);
      }),
      { numRuns: 2000 },
    );
  });
});

// --- its parts, each against an oracle --------------------------------------------------------

/** The record's six service fields, without the closing brace: what a MAC or a tail is read after. */
const head = (device = "f0:18:98:12:34:56"): string =>
  `{"row_key":"101:0000019a9ec06410","device_id":"${device}","rssi":-61,"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false`;

/**
 * The further fields' rule as a regular expression on the bytes read as Latin-1 (one character per
 * byte): `,"key":value` fields — the key a plain string that is not a service key, the value a
 * plain string, a JSON number, true, false or null — then `}`.
 */
const CHARS = String.raw`[^"\\\x00-\x1f]`;
const PLAIN = String.raw`(?:"${CHARS}*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)`;
const TAIL_RULE = new RegExp(String.raw`^(?:,"(?!(?:row_key|device_id|rssi|square_mac|ts|local)")${CHARS}*":${PLAIN})*\}`);

/** The reader on a record of the usual shape ending in `tail` must take exactly what TAIL_RULE takes of it. */
function checkTail(tail: string | Uint8Array): void {
  const bytes = Buffer.concat([Buffer.from(head(), "latin1"), typeof tail === "string" ? Buffer.from(tail, "utf8") : tail]);
  const end = readBytes(bytes, 0, bytes.length, fresh());
  const m = TAIL_RULE.exec(bytes.subarray(head().length).toString("latin1"));
  expect(end).toBe(m === null ? -1 : head().length + m[0].length);
  if (end >= 0) expect(() => JSON.parse(bytes.subarray(0, end).toString("utf8"))).not.toThrow();
}

const keyOf = fc.oneof(
  fc.constantFrom("shopId", "rts", "time", "device", "sensor", "randomized", "vendor", "", "x", "ts", "tsx", "rssi", "rssi2", "local", "locals", "row_key", "device_id", "square_mac", "square_macs", "abcdefghijkl", "abcdefghijklm", "abcdefghijklmnop"),
  fc.string({ unit: fc.constantFrom("a", "é", "\\", '"', "\t", " ", ":", "漢"), maxLength: 6 }),
);
const valueOf = fc.oneof(
  fc.constantFrom("null", "true", "false", "tru", "nul", "fals", "falsey", "0", "-0", "01", "1.5", "1.", ".5", "-", "1e3", "1E+3", "2e-7", "1e", "-1.25E-10", "[]", "{}", '{"a":1}', " 1", "1 "),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
  fc.string({ unit: fc.constantFrom("a", "\u00e9", "\u4e2d", '"', "\\", "\t", " ", ":", ",", "}", "\u007f", "0"), maxLength: 40 }).map((v) => `"${v}"`),
);
const fieldsOf = (maxLength: number): fc.Arbitrary<string> =>
  fc.array(fc.tuple(keyOf, valueOf), { maxLength }).map((fields) => fields.map(([k, v]) => `,"${k}":${v}`).join(""));
const tailOf = fc.tuple(fieldsOf(12), fc.constantFrom("}", "}", "", " }", "},", "}\n")).map(([fields, end]) => fields + end);

/** MAC-like strings in every layout, with a character swapped now and then, and others. */
const hexChar = fc.constantFrom(..."0123456789abcdefABCDEF");
const nearMac = fc.oneof(hexChar, fc.constantFrom(":", "-", ".", "g", "G", " ", "é", "\u0000", "/", "@", "`", "F", "0"));
const macLike = fc
  .tuple(fc.array(hexChar, { minLength: 12, maxLength: 12 }), fc.constantFrom("colon", "dash", "dot", "bare", "mixed"), fc.array(fc.tuple(fc.nat(), nearMac), { maxLength: 2 }))
  .map(([d, layout, edits]) => {
    const o = [0, 2, 4, 6, 8, 10].map((k) => d[k]! + d[k + 1]!);
    let text =
      layout === "colon" ? o.join(":") : layout === "dash" ? o.join("-") : layout === "dot" ? `${o[0]}${o[1]}.${o[2]}${o[3]}.${o[4]}${o[5]}` : layout === "bare" ? o.join("") : `${o.slice(0, 3).join(":")}-${o.slice(3).join(":")}`;
    for (const [at, c] of edits) {
      const i = at % text.length;
      text = text.slice(0, i) + c + text.slice(i + 1);
    }
    return text;
  });
const macBody = fc.oneof({ weight: 4, arbitrary: macLike }, fc.string({ unit: nearMac, maxLength: 20 }), fc.string({ maxLength: 20 }).filter((s) => !s.includes('"') && !s.includes("\\")));

describe("SignalRecordReader: its parts against their oracles", () => {
  it("reads a MAC exactly where toNormalMac reads one, as its normal form, the same string for every spelling", () => {
    fc.assert(
      fc.property(macBody, (text) => {
        const fields = fresh();
        const bytes = Buffer.from(`${head(text)}}`, "utf8");
        const end = readBytes(bytes, 0, bytes.length, fields);
        const expected = toNormalMac(text);
        expect(end >= 0 ? fields.device : undefined).toBe(expected);
      }),
      { numRuns: 5000 },
    );
    const spellings = ["f0:18:98:12:34:56", "F0:18:98:12:34:56", "f0-18-98-12-34-56", "f018.9812.3456", "F01898123456"];
    const got = spellings.map((s) => {
      const fields = fresh();
      const bytes = Buffer.from(`${head(s)}}`);
      expect(readBytes(bytes, 0, bytes.length, fields)).toBe(bytes.length);
      return fields.device;
    });
    expect(new Set(got)).toEqual(new Set(["f0:18:98:12:34:56"]));
  });

  it("takes exactly the further fields its rule takes", () => {
    fc.assert(fc.property(tailOf, (tail) => checkTail(tail)), { numRuns: 5000 });
  });

  // Up to 40 fields: past the 32 whose keys it learns.
  it("keeps to that rule when the keys repeat from record to record (the ones it learns) and then change", () => {
    const tails = fc.oneof(tailOf, fieldsOf(40).map((fields) => `${fields}}`));
    fc.assert(
      fc.property(fc.array(tails, { minLength: 2, maxLength: 8 }), fc.nat(), (run, k) => {
        for (const tail of [...run, run[k % run.length]!, ...run]) checkTail(tail);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps to that rule on broken bytes", () => {
    const bytes = fc.tuple(tailOf, fc.nat(), fc.constantFrom<number[]>([0xe4, 0xb8], [0xff], [0x80], [0x00], [0x1f], [0x22], [0x5c], [0x0a])).map(([t, at, bad]) => {
      const b = [...Buffer.from(t, "utf8")];
      const i = at % (b.length + 1);
      return Uint8Array.from([...b.slice(0, i), ...bad, ...b.slice(i)]);
    });
    fc.assert(fc.property(bytes, (b) => checkTail(b)), { numRuns: 3000 });
  });

  it("says what it cannot read: a limit past its input, a length that is no byte count", () => {
    const small = new SignalRecordReader();
    const input = small.input(10);
    expect(input.length).toBe(10);
    expect(() => small.read(0, 1 << 30, fresh())).toThrow(RangeError);
    expect(() => small.input(-1)).toThrow(RangeError);
    expect(() => small.input(1.5)).toThrow(RangeError);
  });

  it("keeps its input when it grows", () => {
    const small = new SignalRecordReader();
    new TextEncoder().encodeInto(head(), small.input(head().length));
    const grown = small.input(4 << 20);
    grown[head().length] = "}".charCodeAt(0);
    const fields = fresh();
    expect(small.read(0, head().length + 1, fields)).toBe(head().length + 1);
    expect(fields.device).toBe("f0:18:98:12:34:56");
  });
});

// --- known answers ---------------------------------------------------------------------------

const RAW =
  '{"row_key":"101:0000019a9ec06410","device_id":"f0:18:98:12:34:56","rssi":-61,"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false}';
const BACKFILL = `${RAW.slice(0, -1)},"shopId":101,"rts":"0000019a9ec06410","time":1763600000016,"device":"f0:18:98:12:34:56","sensor":"b8:27:eb:00:00:01","randomized":false,"vendor":"Apple, Inc."}`;

function read(line: string, start = 0): { end: number; fields: SignalFields } {
  const bytes = Buffer.from(line, "utf8");
  const fields = fresh();
  return { end: readBytes(bytes, start, bytes.length, fields), fields };
}

describe("SignalRecordReader: known answers", () => {
  it("reads a raw service record and a backfill line", () => {
    for (const line of [RAW, BACKFILL]) {
      const { end, fields } = read(line);
      expect(end).toBe(line.length);
      expect(fields).toEqual({ shopId: 101, rts: "0000019a9ec06410", rtsValue: 0x19a9ec06410, device: "f0:18:98:12:34:56", rssi: -61, sensor: "b8:27:eb:00:00:01", ts: 1763600000016, local: false });
    }
    // From the middle of a chunk, ending before what follows.
    const { end } = read(`x\n${RAW}\n${RAW}`, 2);
    expect(end).toBe(2 + RAW.length);
  });

  it("reads every line `footfall signals backfill` would write for a simulated shop-day, and every raw record", () => {
    const world = createWorld({ seed: 3, shops: 1 });
    const decoder = new SignalDecoder();
    let n = 0;
    for (const raw of world.rawSignals(world.shops[0]!.id)) {
      const s = decoder.decode(raw);
      if (s === undefined) continue;
      // The shape of src/cli/signals.ts's ndjsonLine: the service's fields, then the decoded ones.
      const line = JSON.stringify({ ...raw, shopId: s.shopId, rts: s.rts, time: s.time, device: s.device, sensor: s.sensor, randomized: s.randomized, vendor: s.vendor ?? null });
      expect(compare(line).taken).toBe(true);
      expect(compare(JSON.stringify(raw)).taken).toBe(true);
      if (++n === 2000) break;
    }
    expect(n).toBe(2000);
  });

  it("reads one spelling of an RTS and of a MAC whatever the service's: lowercase, one string per MAC", () => {
    const upper = read(RAW.replace("0000019a9ec06410", "0000019A9EC06410").replace("f0:18:98:12:34:56", "F0-18-98-12-34-56").replace("b8:27:eb:00:00:01", "b827.eb00.0001"));
    const lower = read(RAW);
    expect(upper.fields).toEqual(lower.fields);
    expect(read(RAW.replace("f0:18:98:12:34:56", "F01898123456")).fields.device).toBe(lower.fields.device);
  });

  it("keeps −0 and reads a µs ts exactly; leaves numbers JSON.parse would round, or of other forms, to it", () => {
    expect(Object.is(read(RAW.replace('"rssi":-61', '"rssi":-0')).fields.rssi, -0)).toBe(true);
    expect(read(RAW.replace('"ts":1763600000016', '"ts":1763600000016123')).fields.ts).toBe(1763600000016123);
    for (const ts of ["9007199254740992", "1763600000016000123", "1.5", "1e3", "01", "-1763600000016", '"1763600000016"']) {
      expect(read(RAW.replace('"ts":1763600000016', `"ts":${ts}`)).end).toBe(-1);
    }
    for (const rssi of ["-61.5", "-6.1e1", "-061", '"-61"', "null"]) expect(read(RAW.replace('"rssi":-61', `"rssi":${rssi}`)).end).toBe(-1);
  });

  it("leaves to JSON.parse escapes, whitespace, another order, a repeated service key, nesting", () => {
    for (const line of [
      RAW.replace('"f0:18:98:12:34:56"', '"\\u0066\\u0030:18:98:12:34:56"'),
      RAW.replaceAll(",", ", "),
      ` ${RAW}`,
      RAW.replace('"rssi":-61,"square_mac":"b8:27:eb:00:00:01"', '"square_mac":"b8:27:eb:00:00:01","rssi":-61'),
      `${RAW.slice(0, -1)},"rssi":-70}`,
      `${BACKFILL.slice(0, -1)},"local":true}`,
      `${RAW.slice(0, -1)},"x":{"a":1}}`,
      `${RAW.slice(0, -1)},"x":[1]}`,
      `${RAW.slice(0, -1)},"vendor":"a\\"b"}`,
      `${RAW.slice(0, -1)},"vendor":"a\tb"}`,
      RAW.replace('"local":false', '"local":"false"'),
      RAW.replace("101:", "10a:"),
      RAW.replace("101:0000019a9ec06410", "101:19a9ec06410"),
    ]) {
      expect(read(line).end).toBe(-1);
    }
  });
});
