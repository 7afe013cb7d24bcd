/**
 * `npm run bench`: runs every bench file in bench/ (each exports `default (): Promise<BenchRow[]>`),
 * prints one Markdown table and writes it, with the machine's CPU, Node version, date, load
 * average and wall times, to bench/RESULTS.md. Each file runs in its own child process so one
 * bench's heap and JIT state cannot skew the next one (and the memory bench can read its own
 * peak RSS). Rows come out in the order of issue 9's table whichever file produced them.
 *
 * Usage: `npm run bench` (all) or `npm run bench -- decode sim` (a subset, by file name; a
 * subset prints its table but leaves RESULTS.md alone). `BENCH_TIMEOUT_S` caps each bench file
 * (default 600 s) so a full run cannot hang.
 */
import { spawn } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import type { BenchRow } from "./lib.ts";

const here = dirname(fileURLToPath(import.meta.url));
/**
 * Bench files in the order of the table in issue 9 (operators gives rows 2, 3 and 6), then
 * issue 13's: the line reader (beside decoding, row 1) and the big shop-day (row 8).
 */
const ORDER = ["decode", "parse-line", "operators", "analyze-cli", "backfill", "memory", "sim", "big-shop-day"];
const TIMEOUT_MS = Number(process.env["BENCH_TIMEOUT_S"] ?? 600) * 1000;

/**
 * Issue 9's row of a figure that does not say (`BenchRow.row`), from its wording; the most
 * specific wording is tested first ("Batch vs stream: analyze() vs operator chain" is row 3).
 */
const ROW_BY_FIGURE: ReadonlyArray<readonly [RegExp, number]> = [
  [/big shop-day/i, 8],
  [/memory|\brss\b/i, 6],
  [/simulator|served/i, 7],
  [/backfill|loopback|slices?\b/i, 5],
  [/end.to.end|--input|\bcli\b/i, 4],
  [/batch|analyze\(\)/i, 3],
  [/operator|chain/i, 2],
  [/decode/i, 1],
];

function rowOf(row: BenchRow): number {
  if (row.row !== undefined) return row.row;
  for (const [pattern, n] of ROW_BY_FIGURE) if (pattern.test(row.figure)) return n;
  return 99;
}

async function benchFiles(filter: readonly string[]): Promise<string[]> {
  const names = (await readdir(here))
    .filter((f) => f.endsWith(".ts") && !["run.ts", "lib.ts", "child.ts"].includes(f))
    .map((f) => f.slice(0, -3));
  const ordered = [...ORDER.filter((n) => names.includes(n)), ...names.filter((n) => !ORDER.includes(n)).sort()];
  const unknown = filter.filter((n) => !names.includes(n));
  if (unknown.length > 0) throw new Error(`no bench file bench/${unknown[0]}.ts (have: ${ordered.join(", ")})`);
  return filter.length > 0 ? ordered.filter((n) => filter.includes(n)) : ordered;
}

function runChild(name: string): Promise<BenchRow[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--expose-gc", join(here, "child.ts"), name], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`bench ${name} took longer than ${TIMEOUT_MS / 1000} s (BENCH_TIMEOUT_S)`));
    }, TIMEOUT_MS);
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => (out += chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
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

const cell = (text: string): string => text.replaceAll("|", "\\|").replaceAll("\n", " ");

function table(rows: readonly BenchRow[], failures: readonly string[]): string {
  const sorted = rows.map((r, i) => ({ r, i })).sort((a, b) => rowOf(a.r) - rowOf(b.r) || a.i - b.i);
  const lines = [
    "| # | figure | footfall | baseline | ratio | goal | met | notes |",
    "|---|---|---|---|---|---|---|---|",
    ...sorted.map(({ r }) => {
      const n = rowOf(r);
      return `| ${n === 99 ? "" : n} | ${cell(r.figure)} | ${cell(r.footfall)} | ${cell(r.baseline)} | ${typeof r.ratio === "number" && Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}×` : "—"} | ${cell(r.goal)} | ${r.met ? "yes" : "**no**"} | ${cell(r.note ?? "")} |`;
    }),
    ...failures.map((f) => `|  | ${cell(f)} | — | — | — | — | **no** | failed, see stderr |`),
  ];
  return lines.join("\n");
}

const load = (): string => loadavg().map((l) => l.toFixed(2)).join(" / ");

const filter = process.argv.slice(2);
const files = await benchFiles(filter);
const loadBefore = load();
const started = performance.now();
const rows: BenchRow[] = [];
const failures: string[] = [];
const wall: string[] = [];
for (const name of files) {
  process.stderr.write(`bench: ${name}… (load average ${load()})\n`);
  const t0 = performance.now();
  try {
    rows.push(...(await runChild(name)));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    failures.push(`bench/${name}.ts: ${message}`);
    process.stderr.write(`bench: ${name} failed: ${message}\n`);
  }
  const seconds = (performance.now() - t0) / 1000;
  wall.push(`${name} ${seconds.toFixed(0)} s`);
  process.stderr.write(`bench: ${name} done in ${seconds.toFixed(1)} s\n`);
}
const totalS = (performance.now() - started) / 1000;
const loadAfter = load();
const text = table(rows, failures);
const footer = `Wall time ${totalS.toFixed(0)} s (${wall.join(", ")}); load average (1 / 5 / 15 min) ${loadBefore} before, ${loadAfter} after.`;
process.stdout.write(`${text}\n\n${footer}\n`);
if (filter.length === 0) {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const header =
    `# Benchmark results\n\n${new Date().toISOString().slice(0, 10)} · ${cpu} × ${cpus().length} · Node ${process.version}\n\n` +
    "Produced by `npm run bench`. Every ratio compares two things measured in the same run, interleaved: " +
    "the median of the ratios of runs made side by side (absolute rates on a shared machine drift; such ratios much less). " +
    "Rates and times are medians.\n\n";
  await writeFile(join(here, "RESULTS.md"), `${header}${text}\n\n${footer}\n`);
}
process.exitCode = failures.length > 0 ? 1 : 0;
