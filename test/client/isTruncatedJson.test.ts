import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isTruncatedJson } from "../../src/client/isTruncatedJson.ts";

describe("isTruncatedJson", () => {
  it("every proper prefix of a JSON object is truncated; the whole is not", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.nat(), (obj, cut) => {
        const text = JSON.stringify(obj);
        expect(isTruncatedJson(text)).toBe(false);
        const at = cut % text.length; // 0 … length-1: always loses at least the final "}"
        expect(isTruncatedJson(text.slice(0, at))).toBe(true);
      }),
    );
  });

  it.each(["<html>", "Service Unavailable", "null", "42", '"x"'])("%j is not JSON cut short", (text) => {
    expect(isTruncatedJson(text)).toBe(false);
  });

  it("handles escapes inside strings", () => {
    expect(isTruncatedJson('{"a":"\\"}"}')).toBe(false);
    expect(isTruncatedJson('{"a":"\\"}')).toBe(true);
    expect(isTruncatedJson("  ")).toBe(true);
  });
});
