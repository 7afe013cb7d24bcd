/**
 * Records the golden outputs (`goldenCases`) into `test/golden/outputs/` (gzip): run after a change
 * that is meant to change footfall's outputs, and commit the diff with the reason.
 *
 *   npm run golden:record
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { GOLDEN_DIR, goldenCases } from "./goldenCases.ts";

mkdirSync(GOLDEN_DIR, { recursive: true });
for (const c of goldenCases) {
  const text = await c.produce();
  // mtime 0 and a fixed level: the same text gives the same bytes.
  writeFileSync(join(GOLDEN_DIR, `${c.name}.gz`), gzipSync(text, { level: 9 }));
  console.log(`${c.name}: ${text.split("\n").length - 1} lines`);
}
