import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { LocalDateResolver } from "../../src/sales/LocalDateResolver.ts";

// Reference: Intl's own formatting of the instant in the zone.
const formats = new Map<string, Intl.DateTimeFormat>();
function intlDate(ms: number, timeZone: string): string {
  let f = formats.get(timeZone);
  if (f === undefined) formats.set(timeZone, (f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })));
  return f.format(ms);
}

describe("LocalDateResolver", () => {
  test("00:30 KST belongs to that KST day, the previous UTC day", () => {
    const seoul = new LocalDateResolver("Asia/Seoul");
    expect(seoul.dateOf(Date.parse("2026-11-19T15:30:00Z"))).toBe("2026-11-20");
    expect(seoul.dateOf(Date.parse("2026-11-19T14:59:59.999Z"))).toBe("2026-11-19");
    expect(seoul.dateOf(Date.parse("2026-11-19T15:00:00Z"))).toBe("2026-11-20");
  });

  test("agrees with Intl across zones with DST and odd offsets", () => {
    const zones = ["Asia/Seoul", "America/New_York", "Europe/London", "Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Chatham", "UTC"];
    const resolvers = zones.map((z) => new LocalDateResolver(z));
    fc.assert(
      fc.property(fc.integer({ min: Date.parse("2020-01-01T00:00:00Z"), max: Date.parse("2030-01-01T00:00:00Z") }), fc.integer({ min: 0, max: zones.length - 1 }), (ms, i) => {
        expect(resolvers[i]!.dateOf(ms)).toBe(intlDate(ms, zones[i]!));
      }),
      { numRuns: 500 },
    );
    // Around a DST change in New York (2026-03-08 07:00Z) and the local midnights next to it.
    const ny = resolvers[1]!;
    for (let ms = Date.parse("2026-03-07T00:00:00Z"); ms < Date.parse("2026-03-10T00:00:00Z"); ms += 15 * 60_000) {
      expect(ny.dateOf(ms)).toBe(intlDate(ms, "America/New_York"));
    }
  });

  test("unknown zones are a RangeError up front", () => {
    expect(() => new LocalDateResolver("Mars/Olympus")).toThrow(RangeError);
    expect(() => new LocalDateResolver("Nowhere")).toThrow(/unknown time zone "Nowhere"/);
  });
});
