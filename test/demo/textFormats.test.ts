import { describe, expect, it } from "vitest";
import { alignTable } from "../../src/demo/textFormats.ts";

describe("demo text helpers", () => {
  it("aligns tables per column and cuts long cells", () => {
    expect(alignTable(["shop", "n"], [["Gangnam", "1,204"], ["Jamsil", "7"]], [false, true])).toBe("shop         n\nGangnam  1,204\nJamsil       7\n");
    expect(alignTable(["name"], [["abcdefgh"]], [false], [5])).toBe("name\nabcd…\n");
  });
});
