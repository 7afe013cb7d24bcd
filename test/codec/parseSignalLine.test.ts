/**
 * The general path of signal lines: parseSignalLine is JSON.parse (the byte reader's tests,
 * test/codec/SignalRecordReader.test.ts and test/file/SignalLineReader.test.ts, hold the fast path to
 * it), recordsOfLine tells a record from a page body or array of records, notJson is the rejection
 * of a line that is not JSON.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { notJson, parseSignalLine, recordsOfLine } from "../../src/codec/parseSignalLine.ts";

describe("parseSignalLine", () => {
  it("is JSON.parse: same value, or the same SyntaxError", () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (line) => {
        let expected: unknown;
        let error = "";
        try {
          expected = JSON.parse(line);
        } catch (e) {
          error = (e as Error).message;
        }
        if (error === "") expect(parseSignalLine(line)).toStrictEqual(expected);
        else expect(() => parseSignalLine(line)).toThrow(new SyntaxError(error));
      }),
      { numRuns: 1000 },
    );
  });

  it("keeps every field of a record, as received (a rejection echoes them all)", () => {
    const line = '{"row_key":"101:0000019a9ec06410","device_id":"f0:18:98:12:34:56","rssi":-61,"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false,"vendor":"Apple, Inc."}';
    expect(parseSignalLine(line)).toStrictEqual(JSON.parse(line));
  });
});

describe("recordsOfLine", () => {
  it("gives the records of a page body or an array, and undefined for one record or anything else", () => {
    expect(recordsOfLine({ signals: [1, 2], since: "x" })).toEqual([1, 2]);
    expect(recordsOfLine({ signals: null })).toEqual([]);
    expect(recordsOfLine([{ row_key: "a" }])).toEqual([{ row_key: "a" }]);
    expect(recordsOfLine({ signals: "oops" })).toBeUndefined();
    expect(recordsOfLine({ row_key: "101:0000019a9ec06410", signals: [] })).toBeUndefined();
    for (const value of [null, 1, "x", true, {}]) expect(recordsOfLine(value)).toBeUndefined();
  });
});

describe("notJson", () => {
  it("is the not-json rejection with the line as its record", () => {
    expect(notJson("{oops")).toEqual({ reason: "not-json", field: "", message: "not JSON", record: "{oops" });
  });
});
