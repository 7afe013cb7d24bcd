/**
 * SignalLineReader reads an NDJSON input from its bytes; it must give exactly what reading the
 * input as UTF-8 text, line by line (LineSplitter, JSON.parse, SignalDecoder.decode), gives:
 * the same signals in the same order, the same rejections (reason, field, message, record, line
 * number) and the same counters — for any lines, line ends, byte order marks, broken UTF-8 and
 * chunk boundaries, and on the real captures of test/data/brno-sc6-61 and, when present,
 * ../shared/data/brno-sc6-61 (as they are, and edited into the forms the byte reader leaves to
 * JSON.parse). And the service's usual lines must take the byte path (no decode call).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { SignalDecoder, type InvalidRecord } from "../../src/codec/decodeSignal.ts";
import { notJson, recordsOfLine } from "../../src/codec/parseSignalLine.ts";
import type { Signal } from "../../src/codec/Signal.ts";
import { SignalLineReader } from "../../src/file/SignalLineReader.ts";
import { LineSplitter } from "../../src/text/LineSplitter.ts";

interface Read {
  readonly signals: Signal[];
  readonly rejected: { line: number; invalid: InvalidRecord }[];
  readonly stats: SignalDecoder["stats"];
}

/** The reference: the whole input decoded as UTF-8, split into lines, each parsed and decoded. */
function asText(bytes: Uint8Array, shopId: number | undefined): Read {
  const signals: Signal[] = [];
  const rejected: Read["rejected"] = [];
  let at = 0;
  const decoder = new SignalDecoder({ shopId, onInvalid: (invalid) => rejected.push({ line: at, invalid }) });
  const splitter = new LineSplitter((text, line) => {
    at = line;
    if (text.trim() === "") return;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      decoder.reject(notJson(text));
      return;
    }
    for (const one of recordsOfLine(record) ?? [record]) {
      const s = decoder.decode(one);
      if (s !== undefined) signals.push(s);
    }
  });
  splitter.push(Buffer.from(bytes).toString("utf8"));
  splitter.end();
  return { signals, rejected, stats: decoder.stats };
}

function asBytes(bytes: Uint8Array, cuts: number[], shopId: number | undefined): Read {
  const signals: Signal[] = [];
  const rejected: Read["rejected"] = [];
  let reader: SignalLineReader | undefined;
  const decoder = new SignalDecoder({ shopId, onInvalid: (invalid) => rejected.push({ line: reader?.line ?? -1, invalid }) });
  reader = new SignalLineReader(decoder, (s) => signals.push(s));
  // Every other piece written straight into a room larger than it (reserve and commit), as a file is read.
  const give = (piece: Uint8Array, k: number): void => {
    if (k % 2 === 0) return reader!.push(piece);
    reader!.reserve(piece.length + 7).set(piece);
    reader!.commit(piece.length);
  };
  let from = 0;
  let k = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1))].sort((a, b) => a - b)) {
    give(bytes.subarray(from, cut), k++);
    from = cut;
  }
  give(bytes.subarray(from), k);
  reader.end();
  return { signals, rejected, stats: decoder.stats };
}

/** Signals as plain objects (the byte path shares strings with the chunk; values must agree). */
const plain = (r: Read): unknown => ({ ...r, signals: r.signals.map((s) => ({ ...s })), rejected: r.rejected.map((x) => ({ ...x, invalid: { ...x.invalid } })) });

const hex = (n: number): fc.Arbitrary<string> => fc.array(fc.constantFrom(..."0123456789abcdef"), { minLength: n, maxLength: n }).map((d) => d.join(""));
const mac = fc.oneof(
  { weight: 8, arbitrary: fc.array(hex(2), { minLength: 6, maxLength: 6 }).map((o) => o.join(":")) },
  fc.constantFrom("f0:18:98:12:34:56", "da:a1:19:00:00:01", "F0:18:98:12:34:56", "f0-18-98-12-34-56", "f018.9812.3456", "zz:18:98:12:34:56", "f0:18:98:12:34:5"),
);
const rowKey = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.constantFrom("101", "0101"), hex(16)).map(([s, r]) => `${s}:${r}`) },
  fc.tuple(fc.constantFrom("101", "102", "0101", "7", "123456789012345678"), hex(16)).map(([s, r]) => `${s}:${r}`),
  fc.constantFrom("101:0000019A9EC06410", "101:0000019a9ec0641", "101-0000019a9ec06410", ":0000019a9ec06410", "x"),
);
const integer = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -127, max: 0 }).map(String) },
  fc.integer({ min: -140, max: 10 }).map(String),
  fc.constantFrom("-0", "0", "01", "-61.5", "1e2", "1763600000016", "1763600000016000", "1763600000016000000", "999999999999999", "9999999999999999", "-1763600000016"),
);
const ts = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1763600000000, max: 1763700000000 }).map(String) }, integer);
/** Further fields as `footfall signals backfill` writes them, and unusual ones (repeated service keys, odd numbers, nesting). */
const tailKey = fc.constantFrom("shopId", "rts", "time", "device", "vendor", "", "caf\u00e9", "rssi", "ts", "local", "row_key", "rssix", "r", "\u0000", "a\\b");
const tailValue = fc.oneof(
  fc.constantFrom("null", "true", "false", "tru", "nul", "0", "-0", "01", "1.5", "1.", ".5", "-", "1e3", "1E+3", "2e-7", "1e", "-1.25E-10", "[]", "{}", '{"a":1}'),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
  fc.string({ unit: fc.constantFrom("a", "\u00e9", "\u4e2d", '"', "\\", "\t", " ", ":", ",", "}", "\u007f"), maxLength: 6 }).map((v) => `"${v}"`),
);
/** The backfill writer's fields in its order (the reader's literal-key fast case): each its usual value, or any. */
const backfillTail = fc
  .tuple(
    ...(
      [
        ["shopId", ["101", "0"]],
        ["rts", ['"0000019a9ec06410"']],
        ["time", ["1763600000016"]],
        ["device", ['"f0:18:98:12:34:56"', '"da:a1:19:00:00:01"']],
        ["sensor", ['"b8:27:eb:00:00:01"']],
        ["randomized", ["true", "false"]],
        ["vendor", ["null", '"Apple, Inc."', '"Murata Manufacturing Co.,Ltd."']],
      ] as const
    ).map(([key, usual]) => fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...usual) }, tailValue).map((v) => `,"${key}":${v}`)),
  )
  .map((fields) => fields.join(""));
const extra = fc.oneof(
  fc.constant(',"shopId":101,"rts":"0000019a9ec06410","time":1763600000016,"device":"f0:18:98:12:34:56","randomized":false,"vendor":null'),
  backfillTail,
  backfillTail.map((tail) => `${tail},"x":1`),
  fc.array(fc.tuple(tailKey, tailValue), { maxLength: 4 }).map((fields) => fields.map(([k, v]) => `,"${k}":${v}`).join("")),
);
/** Lines of the service's shape, mostly valid, with the decoder's every kind of problem now and then. */
const serviceLine = fc
  .record({ rowKey, device: mac, rssi: integer, sensor: mac, ts, local: fc.constantFrom("true", "false", "true", "false", '"true"', "null"), extra })
  .map((r) => `{"row_key":"${r.rowKey}","device_id":"${r.device}","rssi":${r.rssi},"square_mac":"${r.sensor}","ts":${r.ts},"local":${r.local}${r.extra}}`);
/** Any line: the service's, with edits (often not JSON), blank, unusual JSON. */
const anyLine = fc.oneof(
  { weight: 6, arbitrary: serviceLine },
  {
    weight: 3,
    arbitrary: fc.tuple(serviceLine, fc.nat(), fc.constantFrom("", " ", "\u00e9", "\\", '"', "}", "{", "\u2028", "\ufeff", "\u0000")).map(([l, at, c]) => {
      const i = at % (l.length + 1);
      return l.slice(0, i) + c + l.slice(i + (c === "" ? 1 : 0));
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\t", "\u00a0", "{oops", "null", "[1]", '"x"', '{"row_key": "101:0000019a9ec06410"}') },
);
/** Bytes of a UTF-8 text, sometimes with a broken sequence spliced in. */
const broken = fc.constantFrom<number[]>([], [], [], [0xe4, 0xb8], [0xff], [0xc3], [0x80, 0x80]);

const input = fc
  .record({
    bom: fc.boolean(),
    lines: fc.array(fc.tuple(anyLine, fc.constantFrom("\n", "\n", "\r\n", "\r"), broken, fc.nat()), { maxLength: 12 }),
    lastEnd: fc.boolean(),
    cuts: fc.array(fc.nat(), { maxLength: 5 }),
    shopId: fc.constantFrom(undefined, 101),
  })
  .map(({ bom, lines, lastEnd, cuts, shopId }) => {
    const parts: number[] = bom ? [0xef, 0xbb, 0xbf] : [];
    lines.forEach(([line, end, bad, at], k) => {
      const bytes = [...Buffer.from(line, "utf8")];
      const i = at % (bytes.length + 1);
      parts.push(...bytes.slice(0, i), ...bad, ...bytes.slice(i));
      if (k < lines.length - 1 || lastEnd) parts.push(...Buffer.from(end));
    });
    return { bytes: Uint8Array.from(parts), cuts, shopId };
  });

describe("SignalLineReader", () => {
  it("gives what reading the input as UTF-8 text line by line gives, for any lines and chunking", () => {
    fc.assert(
      fc.property(input, ({ bytes, cuts, shopId }) => {
        expect(plain(asBytes(bytes, cuts, shopId))).toEqual(plain(asText(bytes, shopId)));
      }),
      { numRuns: 3000 },
    );
  });

  it("reads the service's usual lines from their bytes, without decoding a raw record", () => {
    const line = (i: number): string =>
      `{"row_key":"101:${(1763600000016 + i).toString(16).padStart(16, "0")}","device_id":"f0:18:98:12:34:${(i % 100).toString().padStart(2, "0")}",` +
      `"rssi":-${60 + (i % 30)},"square_mac":"b8:27:eb:00:00:01","ts":${1763600000016 + i},"local":false,"shopId":101,"vendor":null}`;
    const text = Array.from({ length: 1000 }, (_, i) => line(i)).join("\n");
    const decoder = new SignalDecoder();
    const decode = vi.spyOn(decoder, "decode");
    const got: Signal[] = [];
    const reader = new SignalLineReader(decoder, (s) => got.push(s));
    reader.push(Buffer.from(text));
    reader.end();
    expect(got).toHaveLength(1000);
    expect(decode).not.toHaveBeenCalled();
    expect(decoder.stats.decoded).toBe(1000);
    expect(reader.line).toBe(1000);
    // Equal MACs are one string; RTS and values as the decoder gives them.
    expect(got[0]!.device).toBe(got[100]!.device);
    expect({ ...got[7]! }).toEqual({ ...new SignalDecoder().decode(JSON.parse(line(7)))! });
  });

  it("reads a line holding a page as the service answers it, or a JSON array of records, record by record", () => {
    const record = (i: number): string =>
      `{"row_key":"101:${(1763600000016 + i).toString(16).padStart(16, "0")}","device_id":"f0:18:98:12:34:5${i}","rssi":-61,"square_mac":"b8:27:eb:00:00:01","ts":${1763600000016 + i},"local":false}`;
    const lines = [
      `{"signals":[${record(0)},${record(1)},{"row_key":"nope"}],"since":"0000019a9ec06410"}`,
      `[${record(2)}, ${record(3)}]`,
      '{"signals":null,"since":""}',
      record(4),
      '{"signals":"oops"}',
    ];
    const decoder = new SignalDecoder();
    const got: Signal[] = [];
    const rejectedAt: number[] = [];
    const reader = new SignalLineReader(new SignalDecoder({ onInvalid: () => rejectedAt.push(reader.line) }), (s) => got.push(s));
    reader.push(Buffer.from(lines.join("\n")));
    reader.end();
    expect(got.map((s) => s.device)).toEqual([0, 1, 2, 3, 4].map((i) => `f0:18:98:12:34:5${i}`));
    expect(got).toEqual([0, 1, 2, 3, 4].map((i) => decoder.decode(JSON.parse(record(i)))));
    // The page's bad record and the object that is neither record nor page: rejected, with their lines.
    expect(rejectedAt).toEqual([1, 5]);
  });

  it("reads a service's uppercase RTS from the bytes too, as the same signal as its lowercase twin", () => {
    const line = '{"row_key":"101:0000019a9ec06410","device_id":"f0:18:98:12:34:56","rssi":-61,"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false}';
    const read = (text: string): Signal[] => {
      const got: Signal[] = [];
      const decoder = new SignalDecoder({ onInvalid: (x) => expect.unreachable(x.message) });
      const decode = vi.spyOn(decoder, "decode");
      const reader = new SignalLineReader(decoder, (s) => got.push(s));
      reader.push(Buffer.from(text));
      reader.end();
      expect(decode).not.toHaveBeenCalled();
      return got;
    };
    const lower = read(line);
    expect(lower).toHaveLength(1);
    expect(read(line.replace("0000019a9ec06410", "0000019A9EC06410"))).toEqual(lower);
  });

  it("drops a byte order mark only at the start of an input it is told starts a file", () => {
    const line = '{"row_key":"101:0000019a9ec06410","device_id":"f0:18:98:12:34:56","rssi":-61,"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false}';
    for (const [byteOrderMark, decoded] of [["drop", 1], ["keep", 0]] as const) {
      const decoder = new SignalDecoder();
      const reader = new SignalLineReader(decoder, () => {}, { byteOrderMark });
      reader.push(Uint8Array.from([0xef, 0xbb]));
      reader.push(Buffer.from(`\u00bf${line}`, "latin1"));
      reader.end();
      expect([decoder.stats.decoded, decoder.stats.invalid]).toEqual([decoded, 1 - decoded]);
    }
    expect(() => new SignalLineReader(new SignalDecoder(), () => {}, { byteOrderMark: "strip" as "drop" })).toThrow(RangeError);
  });

  it("refuses to commit more bytes than the room it gave, or any without one", () => {
    const reader = new SignalLineReader(new SignalDecoder(), () => {});
    expect(() => reader.commit(1)).toThrow(RangeError);
    reader.reserve(10);
    expect(() => reader.commit(11)).toThrow(RangeError);
    expect(() => reader.commit(-1)).toThrow(RangeError);
    reader.commit(0);
    expect(() => reader.commit(0)).not.toThrow();
    expect(() => reader.commit(1)).toThrow(RangeError);
  });
});

/** The real captures: the four days kept with the tests, and every Brno day beside the checkout when there. */
const HERE = new URL("../data/brno-sc6-61/", import.meta.url).pathname;
const SHARED = new URL("../../../shared/data/brno-sc6-61/", import.meta.url).pathname;
const captures = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".signals.ndjson.gz")).sort().map((f) => join(dir, f)) : []);

/** Reads `bytes` both ways, in chunks of `chunk` bytes, and requires the same signals, rejections and counters. */
function same(bytes: Uint8Array, chunk: number): Read {
  const cuts: number[] = [];
  for (let at = chunk; at < bytes.length; at += chunk) cuts.push(at);
  const got = asBytes(bytes, cuts, undefined);
  const want = asText(bytes, undefined);
  expect(got.stats).toEqual(want.stats);
  expect(got.rejected.length).toBe(want.rejected.length);
  // Compared as JSON text first (a deep compare of a million signals takes long); the deep
  // compare, which tells −0 from 0 and shows the difference, when the texts differ or are small.
  const a = plain(got);
  const b = plain(want);
  if (JSON.stringify(a) !== JSON.stringify(b) || bytes.length < 1 << 20) expect(a).toEqual(b);
  return got;
}

/** Real lines edited into forms the byte reader reads (uppercase, dashes, µs) or leaves to JSON.parse (spaces, escapes, order). */
function edited(text: string, seed: number): string {
  const edits: ((line: string) => string)[] = [
    (l) => l.toUpperCase().replace(/"ROW_KEY"/, '"row_key"').replace(/"DEVICE_ID"/, '"device_id"').replace(/"RSSI"/, '"rssi"').replace(/"SQUARE_MAC"/, '"square_mac"').replace(/"TS"/, '"ts"').replace(/"LOCAL":(TRUE|FALSE)/, (_, b: string) => `"local":${b.toLowerCase()}`),
    (l) => l.replace(/"device_id":"([0-9a-f:]+)"/, (_, m: string) => `"device_id":"${m.replaceAll(":", "-")}"`),
    (l) => l.replace(/"square_mac":"([0-9a-f:]+)"/, (_, m: string) => `"square_mac":"${m.replaceAll(":", "").toUpperCase()}"`),
    (l) => l.replace(/"ts":(\d+)/, (_, t: string) => `"ts":${t}123`),
    (l) => l.replace(/"ts":(\d+)/, (_, t: string) => `"ts":"${t}"`),
    (l) => l.replace(",", ", "),
    (l) => l.replace('"device_id":"', '"device_id":"\\u0030').replace(/"device_id":"\\u0030./, '"device_id":"\\u0030'),
    (l) => `${l.slice(0, -1)},"vendor":"Caf\u00e9 \\"Bar\\"","extra":[1]}`,
    (l) => l.replace(/"rssi":(-?\d+),"square_mac":("[^"]*")/, '"square_mac":$2,"rssi":$1'),
    (l) => l.replace("61:", "62:"),
    (l) => l.replace(/"rssi":-?\d+/, '"rssi":-61.0'),
    (l) => `${l.slice(0, -1)},"shopId":61,"rts":"0000018e1945b9e4","time":1709820983780,"device":"3a:9c:0b:da:7d:f1","sensor":"24:0a:c4:61:00:01","randomized":true,"vendor":null}`,
    (l) => `${l}  `,
    (l) => l.slice(0, -3),
  ];
  let k = seed;
  return text
    .split("\n")
    .map((line) => {
      k = (Math.imul(k, 1103515245) + 12345) >>> 0;
      // About one line in four edited, each edit as often as any other.
      return line === "" || k % 4 !== 0 ? line : edits[(k >>> 8) % edits.length]!(line);
    })
    .join("\n");
}

describe("SignalLineReader on real captures", () => {
  const here = captures(HERE);
  const shared = captures(SHARED);

  it("reads the Brno days kept with the tests as the JSON.parse path does, every line from its bytes", () => {
    expect(here.length).toBeGreaterThan(0);
    const parse = vi.spyOn(JSON, "parse");
    try {
      for (const [k, file] of here.entries()) {
        const bytes = gunzipSync(readFileSync(file));
        const lines = bytes.toString("latin1").split("\n").filter((l) => l !== "").length;
        const calls = parse.mock.calls.length;
        const got = asBytes(bytes, [], undefined);
        // Every record of a real day, as the service wrote it, took the byte path.
        expect(parse.mock.calls.length - calls).toBe(0);
        expect(got.stats.decoded + got.stats.invalid).toBe(lines);
        same(bytes, [1 << 20, 65536, 4099, 997][k % 4]!);
      }
    } finally {
      parse.mockRestore();
    }
  });

  it("reads the Brno days edited into other forms as the JSON.parse path does", () => {
    for (const [k, file] of here.entries()) {
      const text = edited(gunzipSync(readFileSync(file)).toString("utf8"), k + 1);
      const got = same(Buffer.from(text, "utf8"), [65536, 4099, 997, 1 << 20][k % 4]!);
      expect(got.stats.invalid).toBeGreaterThan(0);
    }
  });

  it.skipIf(shared.length === 0)(`reads every Brno day in ../shared/data as the JSON.parse path does (${shared.length} days)`, () => {
    for (const [k, file] of shared.entries()) {
      const bytes = gunzipSync(readFileSync(file));
      same(bytes, [1 << 20, 65536, 4099][k % 3]!);
      if (k % 8 === 0) same(Buffer.from(edited(bytes.toString("utf8"), k), "utf8"), 65536);
    }
  }, 600_000);
});
