/**
 * Each committed WebAssembly module must be the one its text compiles to: a change to a text
 * without `npm run build:wasm` would otherwise go unseen by every other test.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileWat, wasmSource, WASM_MODULES } from "../../scripts/buildWasm.ts";

describe("buildWasm", () => {
  for (const module of WASM_MODULES) {
    it(`${module.target} is what ${module.from} compiles to (else run npm run build:wasm)`, async () => {
      const bytes = await compileWat(module.wat);
      expect(readFileSync(new URL(`../../${module.target}`, import.meta.url), "utf8")).toBe(wasmSource(module, bytes));
    });
  }
});
