import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

/** The project root (where package.json is). */
export const ROOT = resolve(import.meta.dirname, "../..");
/** The built CLI that `npm install` / `npm run build` makes and `npx footfall` runs. */
export const CLI = join(ROOT, "dist/cli/main.js");
const LOCK = join(ROOT, "node_modules/.cache/footfall-e2e-build.lock");

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const t = entry.isDirectory() ? newestSource(path) : entry.name.endsWith(".ts") ? statSync(path).mtimeMs : 0;
    if (t > newest) newest = t;
  }
  return newest;
}

function fresh(): boolean {
  return existsSync(CLI) && statSync(CLI).mtimeMs >= newestSource(join(ROOT, "src"));
}

/**
 * Makes sure dist/ is built from the current src/ (CI builds it in `npm ci`, so this is usually
 * a freshness check). Test files in parallel workers share one build through a lock directory.
 * Type errors elsewhere do not stop the emit; only a missing dist/cli/main.js fails.
 */
export async function ensureBuilt(): Promise<void> {
  if (fresh()) return;
  mkdirSync(join(ROOT, "node_modules/.cache"), { recursive: true });
  const deadline = Date.now() + 170_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // Another worker is building: wait for it, then look again.
      if (Date.now() > deadline) rmSync(LOCK, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 500));
      if (fresh()) return;
    }
  }
  try {
    if (fresh()) return;
    spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "ignore" });
    if (!existsSync(CLI)) throw new Error("npm run build did not produce dist/cli/main.js");
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** What a CLI run printed and how it ended. */
export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The pseudonym key runs get unless they set `FOOTFALL_MAC_KEY` themselves (`undefined` removes
 * it): without a key the CLI would generate one in the user's home.
 */
export const TEST_MAC_KEY = "7465737420706f6e6c7920313620627974657321";

/**
 * Runs `node dist/cli/main.js …args` with exactly `env` (plus PATH and {@link TEST_MAC_KEY}), not a terminal.
 *
 * @example
 * const { status, stdout } = await footfall(["brands", "--format", "ndjson"], settings);
 */
export function footfall(args: readonly string[], env: Record<string, string | undefined> = {}, timeoutMs = 120_000): Promise<CliRun> {
  const full: Record<string, string> = {};
  for (const [k, v] of Object.entries({ PATH: process.env["PATH"] ?? "", FOOTFALL_MAC_KEY: TEST_MAC_KEY, ...env })) if (v !== undefined) full[k] = v;
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: ROOT, env: full, timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof (error as { code?: unknown }).code === "number" ? ((error as { code: number }).code) : null;
        done({ status: code, stdout, stderr });
      },
    );
  });
}
