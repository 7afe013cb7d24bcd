import { describe, expect, it } from "vitest";
import { isTruthInputError, type TruthInputError } from "../../src/errors/TruthInputError.ts";
import { parseTruth } from "../../src/truth/parseTruth.ts";

const SEG = "shop_id,start,end,people\n";
const T0 = "2024-03-14T13:00:00+01:00";
const T1 = "2024-03-14T14:00:00+01:00";
const T2 = "2024-03-14T15:00:00+01:00";

/** The TruthInputError parsing `text` throws (the test fails when it does not throw one). */
function failure(text: string, source = "t.csv"): TruthInputError {
  try {
    parseTruth(text, source);
  } catch (error) {
    if (isTruthInputError(error)) return error;
    throw error;
  }
  throw new Error("expected a TruthInputError");
}

describe("parseTruth: the two shapes", () => {
  it("reads people-inside segments as epoch ms over [start, end)", () => {
    const truth = parseTruth(`${SEG}61,${T0},${T1},12\n61,${T1},${T2},3.5\n`, "a.csv");
    expect(truth).toEqual({
      segments: [
        { shopId: 61, start: Date.parse(T0), end: Date.parse(T1), people: 12, line: 2, source: "a.csv" },
        { shopId: 61, start: Date.parse(T1), end: Date.parse(T2), people: 3.5, line: 3, source: "a.csv" },
      ],
      daily: [],
      unknownRows: 0,
    });
  });

  it("reads daily entrance counts", () => {
    const truth = parseTruth("shop_id,date,visitors\n61,2024-03-14,212\n7,2024-03-15,0\n", "door.csv");
    expect(truth).toEqual({
      segments: [],
      daily: [
        { shopId: 7, date: "2024-03-15", visitors: 0, line: 3, source: "door.csv" },
        { shopId: 61, date: "2024-03-14", visitors: 212, line: 2, source: "door.csv" },
      ],
      unknownRows: 0,
    });
  });

  it("takes columns in any order, names trimmed and in any case, and ignores other columns", () => {
    const truth = parseTruth(` People ,note,END,Start, SHOP_ID ,date\n4,"counted by Ana, at the door",${T1},${T0},61,2024-03-14\n`, "a.csv");
    expect(truth.segments).toEqual([{ shopId: 61, start: Date.parse(T0), end: Date.parse(T1), people: 4, line: 2, source: "a.csv" }]);
  });

  it("accepts Z, ±hhmm, ±hh offsets, fractions of any length and cells with spaces around them", () => {
    const truth = parseTruth(`${SEG}1, 2024-03-14T12:00:00Z ,2024-03-14T14:00:00.123456+0100, 0 \n1,2024-03-14T14:00:00.123456+01,2024-03-14T13:30:00Z,2\n`, "a.csv");
    expect(truth.segments.map((s) => [s.start, s.end, s.people])).toEqual([
      [Date.parse("2024-03-14T12:00:00Z"), Date.parse("2024-03-14T13:00:00.123Z"), 0],
      [Date.parse("2024-03-14T13:00:00.123Z"), Date.parse("2024-03-14T13:30:00Z"), 2],
    ]);
  });

  it("accepts a UTF-8 BOM, CRLF, blank lines, rows of empty cells, and counts lines where rows start", () => {
    const text = `\uFEFF\r\nshop_id,start,end,people,note\r\n\r\n61,${T0},${T1},5,"two\r\nlines"\r\n,,,,\r\n   \r\n61,${T1},${T2},6,\r\n`;
    const truth = parseTruth(text, "a.csv");
    expect(truth.segments.map((s) => [s.line, s.people])).toEqual([
      [4, 5],
      [8, 6],
    ]);
    // the same lines are named in errors
    expect(failure(text.replace(`${T1},${T2},6`, `${T2},${T1},6`)).message).toMatch(/^t\.csv:8: end /);
  });

  it("a segment file with a date column is still a segment file", () => {
    expect(parseTruth(`shop_id,date,start,end,people\n61,2024-03-14,${T0},${T1},1\n`, "a.csv").segments).toHaveLength(1);
  });
});

describe("parseTruth: unknown counts", () => {
  it("skips NaN, nan and empty counts and counts them in unknownRows", () => {
    const truth = parseTruth(`${SEG}61,${T0},${T1},NaN\n61,${T1},${T2},7\n61,2024-03-14T15:00:00+01:00,2024-03-14T16:00:00+01:00,\n62,${T0},${T1},nan\n`, "a.csv");
    expect(truth.segments.map((s) => [s.line, s.people])).toEqual([[3, 7]]);
    expect(truth.unknownRows).toBe(3);
    const daily = parseTruth("shop_id,date,visitors\n61,2024-03-14,NaN\n61,2024-03-15,\n61,2024-03-16,9\n", "d.csv");
    expect(daily.daily.map((d) => d.date)).toEqual(["2024-03-16"]);
    expect(daily.unknownRows).toBe(2);
  });

  it("a file of unknown rows only is not an error: it says how many", () => {
    expect(parseTruth(`${SEG}61,${T0},${T1},NaN\n`, "a.csv")).toEqual({ segments: [], daily: [], unknownRows: 1 });
  });

  it("an unknown count may overlap a known one: it claims nothing", () => {
    expect(parseTruth(`${SEG}61,${T0},${T2},4\n61,${T0},${T1},NaN\n`, "a.csv").segments).toHaveLength(1);
  });

  it("the other cells of an unknown row must still be valid", () => {
    expect(failure(`${SEG}61,2024-03-14T13:00:00,${T1},NaN\n`).message).toMatch(/^t\.csv:2: start "2024-03-14T13:00:00" has no UTC offset/);
    expect(failure(`${SEG}x,${T0},${T1},NaN\n`).message).toMatch(/^t\.csv:2: shop_id "x"/);
  });
});

describe("parseTruth: rows that meet", () => {
  it("different counts for the same moment: an error on the later line naming the earlier one", () => {
    const e = failure(`${SEG}61,${T0},${T2},4\n62,${T0},${T2},1\n61,${T1},2024-03-14T16:00:00+01:00,5\n`);
    expect(e.message).toBe(
      "t.csv:4: shop 61: 5 people over [2024-03-14T13:00:00.000Z, 2024-03-14T15:00:00.000Z), but line 2 says 4 over " +
        "[2024-03-14T12:00:00.000Z, 2024-03-14T14:00:00.000Z); two counts for the same time from 2024-03-14T13:00:00.000Z to 2024-03-14T14:00:00.000Z",
    );
    expect(e).toMatchObject({ source: "t.csv", line: 4, column: "people" });
    // the earlier row in the file is the one named, whichever starts first
    expect(failure(`${SEG}61,${T1},${T2},5\n61,${T0},${T2},4\n`).message).toMatch(/^t\.csv:3: shop 61: 4 people .* but line 2 says 5 /);
  });

  it("segments that touch do not overlap; other shops' segments never conflict", () => {
    const truth = parseTruth(`${SEG}61,${T0},${T1},4\n61,${T1},${T2},5\n62,${T0},${T2},9\n`, "a.csv");
    expect(truth.segments.map((s) => [s.shopId, s.line])).toEqual([
      [61, 2],
      [61, 3],
      [62, 4],
    ]);
  });

  it("the same count twice is kept once: duplicates dropped, partial repeats cut to what is new", () => {
    const truth = parseTruth(`${SEG}61,${T0},${T1},4\n61,${T0},${T1},4\n61,2024-03-14T13:30:00+01:00,${T2},4\n`, "a.csv");
    expect(truth.segments).toEqual([
      { shopId: 61, start: Date.parse(T0), end: Date.parse(T1), people: 4, line: 2, source: "a.csv" },
      { shopId: 61, start: Date.parse(T1), end: Date.parse(T2), people: 4, line: 4, source: "a.csv" },
    ]);
  });

  it("daily rows: the same day twice is fine when equal, an error when not", () => {
    expect(parseTruth("shop_id,date,visitors\n61,2024-03-14,5\n61,2024-03-14,5\n", "d.csv").daily).toHaveLength(1);
    expect(failure("shop_id,date,visitors\n61,2024-03-14,5\n62,2024-03-14,1\n61,2024-03-14,6\n").message).toBe(
      "t.csv:4: shop 61 on 2024-03-14: 6 visitors, but line 2 says 5 for the same day",
    );
  });
});

describe("parseTruth: every error names the file and line, and rejects the whole file", () => {
  const cases: [string, string, RegExp][] = [
    ["empty file", "", /^t\.csv:1: empty file: no header row/],
    ["blank lines only", "\n\r\n  \n", /^t\.csv:1: empty file: no header row/],
    ["header only (no data rows)", "\n\nshop_id,date,visitors\n\n", /^t\.csv:3: no data rows after the header$/],
    ["missing people", `shop_id,start,end\n61,${T0},${T1}\n`, /^t\.csv:1: missing column "people" \(expected shop_id,start,end,people\)$/],
    ["missing end", `shop_id,start,people\n`, /^t\.csv:1: missing column "end"/],
    ["missing visitors", `shop_id,date\n61,2024-03-14\n`, /^t\.csv:1: missing column "visitors" \(expected shop_id,date,visitors\)$/],
    ["missing shop_id", `start,end,people\n${T0},${T1},3\n`, /^t\.csv:1: missing column "shop_id" \(expected shop_id,start,end,people\)$/],
    ["neither shape", "id,when,count\n61,x,3\n", /^t\.csv:1: the header is neither shop_id,start,end,people nor shop_id,date,visitors \(found "id", "when", "count"\)$/],
    ["half of each shape", "shop_id,start,visitors\n", /^t\.csv:1: the header is neither/],
    ["no header (data first)", `61,${T0},${T1},3\n`, /^t\.csv:1: the header is neither/],
    ["another delimiter", "shop_id;date;visitors\n61;2024-03-14;3\n", /^t\.csv:1: the header is neither .*; fields must be separated by commas$/],
    ["both shapes", "shop_id,start,end,people,date,visitors\n", /^t\.csv:1: the header has the columns of both shapes/],
    ["a column twice", "shop_id,date,visitors,Date\n", /^t\.csv:1: column "date" appears twice in the header$/],
    ["short row", `${SEG}61,${T0},${T1},3\n61,${T0}\n`, /^t\.csv:3: row has 2 fields, the header has 4$/],
    ["long row", `${SEG}61,${T0},${T1},3,\n`, /^t\.csv:2: row has 5 fields, the header has 4$/],
    ["broken quoting", `${SEG}61,${T0},${T1},"3\n`, /^t\.csv:\d+: not valid CSV: /],
    ["unparsable start", `${SEG}61,yesterday,${T1},3\n`, /^t\.csv:2: start "yesterday" is not an ISO 8601 time with offset/],
    ["impossible end", `${SEG}61,${T0},2024-02-30T10:00:00Z,3\n`, /^t\.csv:2: end "2024-02-30T10:00:00Z" is not an ISO 8601 time/],
    ["out-of-range offset", `${SEG}61,2024-03-14T10:00:00+24:00,${T1},3\n`, /^t\.csv:2: start .* is not an ISO 8601 time/],
    ["empty start", `${SEG}61,,${T1},3\n`, /^t\.csv:2: start is empty$/],
    ["time without offset", `${SEG}61,${T0},2024-03-14T14:00:00.000,3\n`, /^t\.csv:2: end "2024-03-14T14:00:00.000" has no UTC offset, so it cannot be placed in time/],
    ["date instead of a time", `${SEG}61,2024-03-14,${T1},3\n`, /^t\.csv:2: start "2024-03-14" has no UTC offset/],
    ["end before start", `${SEG}61,${T1},${T0},3\n`, /^t\.csv:2: end 2024-03-14T13:00:00\+01:00 is not after start 2024-03-14T14:00:00\+01:00$/],
    ["end equal to start (same instant, other offset)", `${SEG}61,${T0},2024-03-14T12:00:00Z,3\n`, /^t\.csv:2: end .* is not after start/],
    ["negative people", `${SEG}61,${T0},${T1},-1\n`, /^t\.csv:2: people -1 is negative$/],
    ["negative visitors", "shop_id,date,visitors\n61,2024-03-14,-0.5\n", /^t\.csv:2: visitors -0.5 is negative$/],
    ["non-number people", `${SEG}61,${T0},${T1},many\n`, /^t\.csv:2: people "many" is not a number$/],
    ["people in exponent form", `${SEG}61,${T0},${T1},1e3\n`, /^t\.csv:2: people "1e3" is not a number$/],
    ["infinite visitors", "shop_id,date,visitors\n61,2024-03-14,Infinity\n", /^t\.csv:2: visitors "Infinity" is not a number$/],
    ["hex visitors", "shop_id,date,visitors\n61,2024-03-14,0x10\n", /^t\.csv:2: visitors "0x10" is not a number$/],
    ["non-integer shop_id", `${SEG}61.5,${T0},${T1},3\n`, /^t\.csv:2: shop_id "61\.5" is not a shop id \(a whole number\)$/],
    ["non-number shop_id", `${SEG}sixty-one,${T0},${T1},3\n`, /^t\.csv:2: shop_id "sixty-one" is not a shop id/],
    ["negative shop_id", `${SEG}-61,${T0},${T1},3\n`, /^t\.csv:2: shop_id "-61" is not a shop id/],
    ["unsafe shop_id", `${SEG}9007199254740993,${T0},${T1},3\n`, /^t\.csv:2: shop_id "9007199254740993" is not a shop id/],
    ["empty shop_id", `${SEG},${T0},${T1},3\n`, /^t\.csv:2: shop_id is empty$/],
    ["unparsable date", "shop_id,date,visitors\n61,14.03.2024,3\n", /^t\.csv:2: date "14\.03\.2024" is not a calendar date YYYY-MM-DD$/],
    ["impossible date", "shop_id,date,visitors\n61,2023-02-29,3\n", /^t\.csv:2: date "2023-02-29" is not a calendar date/],
    ["empty date", "shop_id,date,visitors\n61,,3\n", /^t\.csv:2: date is empty$/],
  ];

  it.each(cases)("%s", (_name, text, message) => {
    const e = failure(text);
    expect(e.message).toMatch(message);
    expect(e.source).toBe("t.csv");
    expect(e.message.startsWith(`t.csv:${e.line}: ${e.reason}`)).toBe(true);
  });

  it("the first problem of the file is the one reported, after good rows too", () => {
    const e = failure(`${SEG}61,${T0},${T1},3\n61,${T1},${T2},-2\n61,${T2},yesterday,4\n`);
    expect(e.line).toBe(3);
  });

  it("validates its arguments", () => {
    expect(() => parseTruth(undefined as unknown as string, "a.csv")).toThrow(TypeError);
    expect(() => parseTruth("", 3 as unknown as string)).toThrow(TypeError);
  });
});
