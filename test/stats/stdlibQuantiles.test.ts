import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { normalQuantile, tQuantile } from "../../src/stats/stdlibQuantiles.ts";

// What `npm run build` writes in place of the compiled module: @stdlib's functions bundled into
// one file. `npm ci` and `npm install` build (`prepare`), so it is there whenever tests run.
const BUNDLE = fileURLToPath(new URL("../../dist/stats/stdlibQuantiles.js", import.meta.url));

describe("stdlibQuantiles", () => {
  it("is bundled by the build into one module that imports nothing", () => {
    expect(existsSync(BUNDLE)).toBe(true);
    const text = readFileSync(BUNDLE, "utf8");
    expect(text).not.toMatch(/^\s*import\s/m);
    expect(text).not.toMatch(/require\(["']@stdlib/);
    expect(text).toMatch(/^export\s*\{/m);
  });

  it("gives, bundled, the packages' own values to the last bit", async () => {
    const bundled = (await import(BUNDLE)) as { normalQuantile: typeof normalQuantile; tQuantile: typeof tQuantile };
    const ps = [1e-12, 1e-6, 0.001, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.975, 0.999, 1 - 1e-9];
    const dfs = [0.5, 1, 1.5, 2, 3, 7.25, 10, 30, 120, 1e3, 1e6, 1e9];
    for (const p of ps) {
      expect(Object.is(bundled.normalQuantile(p, 0, 1), normalQuantile(p, 0, 1))).toBe(true);
      expect(Object.is(bundled.normalQuantile(p, -3, 2.5), normalQuantile(p, -3, 2.5))).toBe(true);
      for (const df of dfs) expect(Object.is(bundled.tQuantile(p, df), tQuantile(p, df)), `t(${p}, ${df})`).toBe(true);
    }
    expect(Number.isNaN(bundled.tQuantile(1.5, 3))).toBe(true);
  });
});
