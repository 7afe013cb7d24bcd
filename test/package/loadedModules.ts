import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PRELOAD = pathToFileURL(fileURLToPath(new URL("./recordModules.mjs", import.meta.url))).href;

/**
 * Imports `entry` (a TypeScript file, through tsx) in a fresh Node process and returns every
 * module it loaded: file URLs and `node:` built-ins, deduplicated, in load order. A fresh
 * process because vitest's own process already holds most of the package's dependencies.
 *
 * @example
 * const loaded = loadedModules("src/operators/index.ts");
 * loaded.some((url) => url.endsWith("/src/operators/sessionize.ts")); // true
 */
export function loadedModules(entry: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), "footfall-graph-"));
  const log = join(dir, "modules.log");
  try {
    const url = pathToFileURL(join(ROOT, entry)).href;
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", "--import", PRELOAD, "--input-type=module", "-e", `await import(${JSON.stringify(url)});`],
      { cwd: ROOT, env: { ...process.env, FOOTFALL_MODULE_LOG: log }, encoding: "utf8", timeout: 60_000 },
    );
    if (child.status !== 0) throw new Error(`importing ${entry} failed (${child.status}):\n${child.stderr}`);
    return [...new Set(readFileSync(log, "utf8").split("\n").filter((line) => line !== ""))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
