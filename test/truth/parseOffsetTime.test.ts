import { describe, expect, it } from "vitest";
import { parseOffsetTime } from "../../src/truth/parseOffsetTime.ts";

describe("parseOffsetTime", () => {
  it("reads ISO 8601 instants with an offset as epoch milliseconds", () => {
    for (const [text, iso] of [
      ["2024-03-14T13:54:07.533+01:00", "2024-03-14T12:54:07.533Z"],
      ["2024-03-14T12:54:07.533Z", "2024-03-14T12:54:07.533Z"],
      ["2024-03-14t12:54:07.533z", "2024-03-14T12:54:07.533Z"],
      ["2024-03-14 13:54:07+01:00", "2024-03-14T12:54:07Z"],
      ["2024-03-14T13:54+0100", "2024-03-14T12:54:00Z"],
      ["2024-03-14T13:54:07,5+01", "2024-03-14T12:54:07.500Z"],
      ["2024-03-14T13:54:07.533999-05:45", "2024-03-14T19:39:07.533Z"],
      ["2024-03-01T00:30:00+01:00", "2024-02-29T23:30:00Z"],
      ["1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"],
    ] as const) {
      expect(parseOffsetTime(text), text).toBe(Date.parse(iso));
    }
  });

  it('names a date or local time without an offset "no offset"', () => {
    for (const text of ["2024-03-14T13:54:07", "2024-03-14T13:54:07.533", "2024-03-14 13:54", "2024-03-14"]) {
      expect(parseOffsetTime(text), text).toBe("no offset");
    }
  });

  it("rejects what is not a real ISO 8601 instant", () => {
    for (const text of [
      "2024-02-30T10:00:00Z", "2023-02-29T10:00:00Z", "2024-03-14T24:00:00Z", "2024-03-14T10:60:00Z", "2024-03-14T10:00:60Z",
      "2024-03-14T10:00:00+24:00", "2024-03-14T10:00:00+01:60", "2024-03-14+01:00", "2024-03-14T10Z", "14.03.2024 10:00",
      "March 14, 2024 10:00 GMT", "1710420847533", "2024-3-14T10:00:00Z", "", " 2024-03-14T10:00:00Z",
    ]) {
      expect(parseOffsetTime(text), text).toBeUndefined();
    }
  });
});
