/**
 * `npm run bench`: runs every bench file in bench/ (each exports `default (): Promise<BenchRow[]>`),
 * prints one Markdown table and writes it, with the machine's CPU, Node version and date,
 * to bench/RESULTS.md. Each file runs in its own child process so one bench's heap and
 * JIT state cannot skew the next one (and the memory bench can read its own peak RSS).
 *
 * Usage: `npm run bench` (all) or `npm run bench -- decode sim` (a subset, by file name).
 */
import { spawn } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import type { BenchRow } from "./lib.ts";

const here = dirname(fileURLToPath(import.meta.url));
/** Benches in the order of the table in issue 9. */
const ORDER = ["decode", "operators", "analyze-cli", "backfill", "memory", "sim"];

async function benchFiles(filter: readonly string[]): Promise<string[]> {
  const names = (await readdir(here))
    .filter((f) => f.endsWith(".ts") && !["run.ts", "lib.ts", "child.ts"].includes(f))
    .map((f) => f.slice(0, -3));
  const ordered = [...ORDER.filter((n) => names.includes(n)), ...names.filter((n) => !ORDER.includes(n)).sort()];
  return filter.length > 0 ? ordered.filter((n) => filter.includes(n)) : ordered;
}

function runChild(name: string): Promise<BenchRow[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--expose-gc", join(here, "child.ts"), name], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0) return reject(new Error(`bench ${name} exited with ${code}`));
      try {
        resolve(JSON.parse(line) as BenchRow[]);
      } catch {
        reject(new Error(`bench ${name} printed no result rows`));
      }
    });
  });
}

function table(rows: readonly BenchRow[]): string {
  const lines = [
    "| figure | footfall | baseline | ratio | goal | met |",
    "|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.figure} | ${r.footfall} | ${r.baseline} | ${r.ratio.toFixed(2)}× | ${r.goal} | ${r.met ? "yes" : "**no**"}${r.note ? ` (${r.note})` : ""} |`,
    ),
  ];
  return lines.join("\n");
}

const files = await benchFiles(process.argv.slice(2));
const rows: BenchRow[] = [];
let failed = false;
for (const name of files) {
  process.stderr.write(`bench: ${name}…\n`);
  try {
    rows.push(...(await runChild(name)));
  } catch (error) {
    failed = true;
    process.stderr.write(`bench: ${name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
const text = table(rows);
process.stdout.write(`${text}\n`);
if (process.argv.length <= 2) {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const header = `# Benchmark results\n\n${new Date().toISOString().slice(0, 10)} · ${cpu} × ${cpus().length} · Node ${process.version}\n\nProduced by \`npm run bench\`. Ratios compare two things measured in the same run.\n\n`;
  await writeFile(join(here, "RESULTS.md"), `${header}${text}\n`);
}
process.exitCode = failed ? 1 : 0;
