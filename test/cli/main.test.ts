import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorld } from "../../src/sim/createWorld.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
let dir: string;
let input: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "footfall-main-"));
  input = join(dir, "day.ndjson");
  // Enough sessions that the output is far larger than a pipe's buffer (64 KiB).
  const world = createWorld({ seed: 5, shops: 1, visitorsPerDay: 150, passersByPerDay: 1500, openingHours: [10, 18] });
  await writeFile(input, [...world.rawSignals(world.shops[0]!.id)].map((r) => JSON.stringify(r)).join("\n"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the real CLI process (`node src/cli/main.ts` through tsx), reading stdout only up to its first line. */
function runUntilFirstLine(args: readonly string[]): Promise<{ status: number | null; signal: NodeJS.Signals | null; first: string; err: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "src/cli/main.ts"), ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
    // What `| head -1` does: read a line, then close the pipe.
    if (out.includes("\n")) child.stdout.destroy();
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (status, signal) => resolve({ status, signal, first: out.slice(0, out.indexOf("\n")), err }));
  });
}

describe("footfall (the process)", () => {
  it("stops quietly when the reader of its output goes away (`| head`), with status 1 and no stack trace", async () => {
    const run = await runUntilFirstLine(["analyze", "--input", input, "--format", "ndjson"]);
    expect(JSON.parse(run.first)).toHaveProperty("type");
    expect(run.signal).toBeNull();
    expect(run.status).toBe(1);
    expect(run.err).toBe("");
  }, 60_000);
});
