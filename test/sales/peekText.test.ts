import { describe, expect, it } from "vitest";
import { peekText } from "../../src/sales/peekText.ts";

describe("peekText", () => {
  it("reads until enough, then replays every chunk as it came", async () => {
    async function* chunks() {
      yield "ab";
      yield "c\nd";
      yield "ef";
    }
    const { seen, chunks: all } = await peekText(chunks(), (text) => text.includes("\n"));
    expect(seen).toBe("abc\nd");
    const replayed: string[] = [];
    for await (const c of all) replayed.push(c);
    expect(replayed).toEqual(["ab", "c\nd", "ef"]);
  });

  it("stops at the end of a short stream, and closes the stream when the reader stops early", async () => {
    let closed = false;
    async function* chunks() {
      try {
        yield "a";
        yield "b";
        yield "c";
      } finally {
        closed = true;
      }
    }
    expect((await peekText((async function* () { yield "x"; })(), () => false)).seen).toBe("x");
    const { chunks: all } = await peekText(chunks(), (text) => text.length > 0);
    for await (const c of all) if (c === "b") break;
    expect(closed).toBe(true);
  });
});
