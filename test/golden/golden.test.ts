import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { GOLDEN_DIR, goldenCases, splitCases, type GoldenCase } from "./goldenCases.ts";

// footfall's outputs byte for byte as recorded (`npm run golden:record`): a restructuring must
// not move them; a change meant to move them records them again, and the diff shows what moved.
describe("golden outputs", () => {
  const cases: [string, GoldenCase][] = [...goldenCases.map((c): [string, GoldenCase] => [c.name, c]), ...splitCases.map((c): [string, GoldenCase] => [`${c.name}, split by device`, c])];
  for (const [title, c] of cases) {
    it(`${title} is as recorded`, { timeout: 180_000 }, async () => {
      const expected = gunzipSync(readFileSync(join(GOLDEN_DIR, `${c.name}.gz`))).toString("utf8");
      const actual = await c.produce();
      if (actual === expected) return;
      // Name the first line that differs, not a megabyte of text.
      const a = actual.split("\n");
      const e = expected.split("\n");
      let i = 0;
      while (i < a.length && i < e.length && a[i] === e[i]) i++;
      expect({ line: i + 1, actual: a[i]?.slice(0, 2000), lines: a.length }).toEqual({ line: i + 1, actual: e[i]?.slice(0, 2000), lines: e.length });
    });
  }
});
