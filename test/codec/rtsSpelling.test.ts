import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalRts, rtsSpellingOf, spellRts } from "../../src/codec/rtsSpelling.ts";

const value = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const canonical = (v: bigint) => v.toString(16).padStart(16, "0");
const spelling = fc.record({ upper: fc.boolean(), padded: fc.boolean() });

describe("RTS spellings", () => {
  it("every spelling of a value reads back as footfall's, and tells its spelling", () => {
    fc.assert(
      fc.property(value, spelling, (v, s) => {
        const text = spellRts(canonical(v), s);
        expect(canonicalRts(text)).toBe(canonical(v));
        expect(BigInt(`0x${text}`)).toBe(v);
        const seen = rtsSpellingOf(text)!;
        // 16 digits read as padded; uppercase only where a letter shows it.
        expect(seen.padded).toBe(s.padded || text.length === 16);
        expect(seen.upper).toBe(s.upper && /[a-fA-F]/.test(text));
      }),
    );
  });

  it("reads nothing else: a short text with a leading zero is a padded RTS with a digit lost", () => {
    for (const bad of ["", "0000019a9ec0641", "00", "0000019a9ec064100", "0000019a9ec0641g", "19a9ec0641g", " 19a", "-1", "0x19a"]) {
      expect(canonicalRts(bad)).toBeUndefined();
      expect(rtsSpellingOf(bad)).toBeUndefined();
    }
    expect(canonicalRts(42)).toBeUndefined();
    expect(canonicalRts("0")).toBe("0000000000000000");
  });

  it("agrees with the regular expressions of the two forms on arbitrary texts", () => {
    const unit = fc.constantFrom(..."0123456789abcdefABCDEFg");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 18 }), (text) => {
        const ok = /^[0-9a-fA-F]{16}$/.test(text) || /^(0|[1-9a-fA-F][0-9a-fA-F]{0,14})$/.test(text);
        expect(canonicalRts(text)).toBe(ok ? text.toLowerCase().padStart(16, "0") : undefined);
      }),
      { numRuns: 3000 },
    );
  });
});
