import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../src/client/parseRetryAfter.ts";

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-20T10:00:00Z");
  it.each([
    ["0", 0],
    ["2", 2000],
    [" 120 ", 120_000],
    ["Fri, 20 Nov 2026 10:00:05 GMT", 5000],
    ["Fri, 20 Nov 2026 09:59:00 GMT", 0],
  ])("%j → %i ms", (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([null, undefined, "", "soon", "-1", "1.5", "2026-11-20"])("%j → undefined", (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});
