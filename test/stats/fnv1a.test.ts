import { describe, expect, it } from "vitest";
import { fnv1a } from "../../src/stats/fnv1a.ts";

describe("fnv1a", () => {
  it("gives the published 32-bit FNV-1a values", () => {
    // Test vectors of the FNV reference (Landon Curt Noll's fnv_test.c).
    expect(fnv1a("")).toBe(0x811c9dc5);
    expect(fnv1a("a")).toBe(0xe40c292c);
    expect(fnv1a("foobar")).toBe(0xbf9cf968);
  });

  it("is an unsigned 32-bit integer, the same for the same text", () => {
    for (const text of ["f0:18:98:12:34:56", "€ and 𝄞", "x".repeat(1000)]) {
      const h = fnv1a(text);
      expect(Number.isInteger(h) && h >= 0 && h < 2 ** 32).toBe(true);
      expect(fnv1a(text)).toBe(h);
    }
    expect(fnv1a("ab")).not.toBe(fnv1a("ba"));
  });
});
