import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { LineSplitter } from "../../src/text/LineSplitter.ts";

/** Feeds `chunks` to a splitter and returns what it handed out, as [line number, text] pairs. */
function split(chunks: readonly string[]): [number, string][] {
  const out: [number, string][] = [];
  const splitter = new LineSplitter((text, line) => out.push([line, text]));
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return out;
}

/** The obvious splitter on the whole text, for comparison: the rule written as a regular expression. */
function naive(text: string): [number, string][] {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (body === "") return [];
  const parts = body.split(/\r\n|\r|\n/);
  // A line end at the very end ends the last line; it does not start an empty one.
  if (parts[parts.length - 1] === "") parts.pop();
  return parts.map((p, i) => [i + 1, p]);
}

describe("LineSplitter", () => {
  test("a U+FEFF starting the input is a byte-order mark, unless the text is a later part of a file", () => {
    const lines = (byteOrderMark: "drop" | "keep" | undefined): string[] => {
      const out: string[] = [];
      const s = new LineSplitter((text) => out.push(text), byteOrderMark === undefined ? {} : { byteOrderMark });
      s.push("\uFEFFa\n\uFEFFb");
      s.end();
      return out;
    };
    expect(lines(undefined)).toEqual(["a", "\uFEFFb"]);
    expect(lines("drop")).toEqual(["a", "\uFEFFb"]);
    expect(lines("keep")).toEqual(["\uFEFFa", "\uFEFFb"]);
    expect(() => new LineSplitter(() => {}, { byteOrderMark: "strip" as "drop" })).toThrow(RangeError);
  });

  test("LF, CRLF and lone CR each end a line; numbers count blank lines", () => {
    expect(split(["a\nb\r\nc\rd"])).toEqual([[1, "a"], [2, "b"], [3, "c"], [4, "d"]]);
    expect(split(["\n\r\n\r"])).toEqual([[1, ""], [2, ""], [3, ""]]);
  });

  test("a last line without a line end counts; an empty input has no lines", () => {
    expect(split(["x\ny"])).toEqual([[1, "x"], [2, "y"]]);
    expect(split(["x\n"])).toEqual([[1, "x"]]);
    expect(split(["x\r"])).toEqual([[1, "x"]]);
    expect(split([])).toEqual([]);
    expect(split(["", ""])).toEqual([]);
  });

  test("a CRLF split between two chunks is one line end", () => {
    expect(split(["a\r", "\nb"])).toEqual([[1, "a"], [2, "b"]]);
    expect(split(["a\r", "", "\nb\r", "\r\n"])).toEqual([[1, "a"], [2, "b"], [3, ""]]);
  });

  test("lines complete before push returns; a held-back CR waits for the next chunk", () => {
    const seen: string[] = [];
    const s = new LineSplitter((text) => seen.push(text));
    s.push("a\nb\r");
    expect(seen).toEqual(["a"]);
    expect(s.lines).toBe(1);
    s.push("c");
    expect(seen).toEqual(["a", "b"]);
    s.end();
    expect(seen).toEqual(["a", "b", "c"]);
  });

  test("a leading byte-order mark is dropped, even in a chunk of its own; one later on is text", () => {
    expect(split(["\uFEFF", "a\n\uFEFFb"])).toEqual([[1, "a"], [2, "\uFEFFb"]]);
  });

  test("end() resets, so the splitter reads a second input from line 1", () => {
    const out: [number, string][] = [];
    const s = new LineSplitter((text, line) => out.push([line, text]));
    s.push("\uFEFFa\nb");
    s.end();
    s.push("\uFEFFc");
    s.end();
    expect(out).toEqual([[1, "a"], [2, "b"], [1, "c"]]);
  });

  test("rejects a missing callback", () => {
    expect(() => new LineSplitter(undefined as unknown as () => void)).toThrow(TypeError);
  });

  test("property: any chunking of any text gives the naive splitter's lines", () => {
    const text = fc.array(fc.constantFrom("a", "b", "{", "\r", "\n", "\r\n", "\uFEFF", " "), { maxLength: 40 }).map((parts) => parts.join(""));
    const input = text.chain((t) =>
      fc.record({ text: fc.constant(t), cuts: fc.uniqueArray(fc.integer({ min: 0, max: t.length }), { maxLength: 8 }) }),
    );
    fc.assert(
      fc.property(input, ({ text: t, cuts }) => {
        const at = [0, ...[...cuts].sort((x, y) => x - y), t.length];
        const chunks = at.slice(1).map((end, i) => t.slice(at[i], end));
        expect(split(chunks)).toEqual(naive(t));
      }),
      { numRuns: 2000 },
    );
  });

  test("a long file with one stray CR splits the same as the naive splitter", () => {
    const text = `${"x\n".repeat(5000)}y\rz${"\n".repeat(3)}`;
    expect(split([text.slice(0, 7001), text.slice(7001)])).toEqual(naive(text));
  });
});
