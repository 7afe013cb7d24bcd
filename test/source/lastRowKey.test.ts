import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { lastRowKey } from "../../src/source/lastRowKey.ts";

describe("lastRowKey", () => {
  it("reads the last row_key member's string, whatever JSON whitespace surrounds it", () => {
    expect(lastRowKey('{"signals":[{"row_key":"7:0000000000000001"},{"row_key":"7:0000000000000002","rssi":-60}]}')).toBe("7:0000000000000002");
    expect(lastRowKey('{ "signals": [ { "row_key"\t:\n "7:00000000000000ab" } ] }')).toBe("7:00000000000000ab");
  });

  it.each([
    ['{"signals":[]}', "no member"],
    ['{"signals":[{"row_key":null}]}', "not a string"],
    ['{"signals":[{"row_key":17}]}', "a number"],
    ['{"signals":[{"row_key":"7:\\u0030000000000000001"}]}', "an escape"],
    ['{"signals":[{"row_key":"7:00000', "cut short"],
    ['{"signals":[{"row_key":"7:0000000000000001","device_id":"row_key"}]}', "the last text a value, not a member"],
  ])("is undefined for %s (%s)", (text) => {
    expect(lastRowKey(text)).toBeUndefined();
  });

  it("agrees with JSON.parse on the last record of serialised pages", () => {
    const key = fc.string({ unit: "grapheme-ascii" }).filter((k) => !k.includes('"') && !k.includes("\\"));
    const record = fc.record({ row_key: key, device_id: fc.string(), rssi: fc.integer({ min: -100, max: 0 }) });
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 20 }), fc.boolean(), (signals, pretty) => {
        const text = JSON.stringify({ signals, since: "x" }, null, pretty ? 2 : undefined);
        // A device_id spelled `"row_key":"…"` would be escaped in the text, so it cannot mislead.
        expect(lastRowKey(text)).toBe(signals.at(-1)!.row_key);
      }),
    );
  });
});
