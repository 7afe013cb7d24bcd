import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitLines } from "../../src/text/splitLines.ts";

/** Lines of `text` by splitLines, chunk after chunk, the rest carried over as a reader does. */
function byChunks(chunks: string[]): string[] {
  const out: string[] = [];
  const collect = (t: string, s: number, e: number): void => void out.push(t.slice(s, e));
  let rest = "";
  for (const chunk of chunks) {
    const text = rest + chunk;
    rest = text.slice(splitLines(text, false, collect));
  }
  expect(splitLines(rest, true, collect)).toBe(rest.length);
  return out;
}

describe("splitLines", () => {
  it("ends lines at LF, CRLF and a lone CR, and returns where the unfinished rest starts", () => {
    const got: [number, number][] = [];
    expect(splitLines("a\nbb\r\nc\rd", false, (_t, s, e) => got.push([s, e]))).toBe(8);
    expect(got).toEqual([[0, 1], [2, 4], [6, 7]]);
  });

  it("holds a CR at the very end back (an LF may follow in the next chunk) unless the input ends", () => {
    const got: string[] = [];
    const collect = (t: string, s: number, e: number): void => void got.push(t.slice(s, e));
    expect(splitLines("a\r", false, collect)).toBe(0);
    expect(got).toEqual([]);
    expect(splitLines("a\r", true, collect)).toBe(2);
    expect(splitLines("", true, collect)).toBe(0);
    expect(got).toEqual(["a"]);
  });

  it("gives the same lines however the text is cut into chunks", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "b", "\n", "\r", " "), maxLength: 40 }), fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((x, y) => x - y);
        const chunks = [0, ...at].map((from, i) => text.slice(from, at[i] ?? text.length));
        expect(byChunks(chunks)).toEqual(byChunks([text]));
      }),
      { numRuns: 2000 },
    );
  });
});
