/**
 * End to end offline (issue 9, row 4): `footfall analyze --input FILE.ndjson --format ndjson`
 * over one simulated shop-day (seed 1, one shop, the default day) against a minimal program that
 * reads the same file at once, `JSON.parse`s each line and runs bench/baselines/handWrittenLoop.ts
 * on the records. Both are separate `node` processes running JavaScript that tsc compiled from
 * this checkout (neither pays for a TypeScript loader), timed from spawn to exit with stdout on
 * /dev/null, interleaved; the ratio is the median of the pairs' ratios (`timeRatio`), times are
 * medians. The warm-up runs' outputs are compared, so the row says whether both computed the
 * same daily counts.
 *
 * The CLI does more than the baseline, and the ratio includes it: it streams the file line by
 * line, also computes hourly counts and the data-quality report, and writes one NDJSON line per
 * session; the baseline writes one JSON line of daily counts.
 * Goal: the CLI takes at most 1.2× the baseline's time.
 *
 * Run alone: `npx tsx bench/analyze-cli.ts` (or `npm run bench -- analyze-cli`).
 */
// The baseline program is this file run compiled (`node analyze-cli.js --baseline FILE`), so only
// what it needs is imported statically; the bench's machinery is imported inside the bench.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { handWrittenLoop, type HandDay } from "./baselines/handWrittenLoop.ts";
import type { BenchRow } from "./lib.ts";

const RUNS = 7;
const WARMUP = 1;
const SEED = 1;

/**
 * Measures the CLI against the baseline on one shop-day; see the file comment.
 *
 * @example
 * const [row] = await analyzeCliBench();
 */
export default async function analyzeCliBench(): Promise<BenchRow[]> {
  const { createWriteStream } = await import("node:fs");
  const { mkdtemp, rm } = await import("node:fs/promises");
  const { EventEmitter } = await import("node:events");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { createWorld } = await import("../src/sim/createWorld.ts");
  const { compileForBench, rate, runNode, summarize, timeRatio } = await import("./lib.ts");

  const { js, buildMs } = await compileForBench("footfall-bench", { cli: "src/cli/main.ts", baseline: "bench/analyze-cli.ts" });
  const { cli: cliJs, baseline: baselineJs } = js;

  const dir = await mkdtemp(join(tmpdir(), "footfall-bench-"));
  try {
    // The shop-day as `footfall signals` would save it: one raw service record per line.
    const file = join(dir, "shop-day.ndjson");
    // The simple world the row was first measured on (see bench/operators.ts).
    const world = createWorld({ seed: SEED, shops: 1, rotation: "off" });
    const out = createWriteStream(file);
    let records = 0;
    let bytes = 0;
    let chunk = "";
    for (const record of world.rawSignals(world.shops[0]!.id)) {
      chunk += `${JSON.stringify(record)}\n`;
      records++;
      if (chunk.length > 1 << 20) {
        bytes += chunk.length;
        if (!out.write(chunk)) await EventEmitter.once(out, "drain");
        chunk = "";
      }
    }
    bytes += chunk.length;
    out.end(chunk);
    await EventEmitter.once(out, "finish");

    const cli = [cliJs, "analyze", "--input", file, "--format", "ndjson"];
    const baseline = [baselineJs, "--baseline", file];
    let agree = "";
    for (let i = 0; i < WARMUP; i++) {
      const c = await runNode(cli, true);
      const b = await runNode(baseline, true);
      agree = sameDailyCounts(c.stdout, b.stdout);
    }
    const a: number[] = [];
    const b: number[] = [];
    const aCpu: number[] = [];
    const bCpu: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const x = await runNode(cli, false);
      const y = await runNode(baseline, false);
      a.push(x.ms);
      b.push(y.ms);
      aCpu.push(x.cpuMs);
      bCpu.push(y.cpuMs);
    }
    const c = summarize(a);
    const p = summarize(b);
    const ratio = timeRatio(a, b);
    const cpuRatio = timeRatio(aCpu, bCpu);
    return [
      {
        row: 4,
        figure: "End to end offline: `footfall analyze --input` shop-day NDJSON (records/s)",
        footfall: rate((records / c.median) * 1000, "rec/s"),
        baseline: `${rate((records / p.median) * 1000, "rec/s")} read + JSON.parse + hand-written loop`,
        ratio: Number(ratio.toFixed(2)),
        goal: "≤ 1.2× baseline time",
        met: ratio <= 1.2,
        note:
          `${records} records, ${(bytes / 1048576).toFixed(0)} MiB; whole processes incl. startup; ` +
          `CLI min ${c.min.toFixed(0)} / median ${c.median.toFixed(0)} / max ${c.max.toFixed(0)} ms, ` +
          `baseline min ${p.min.toFixed(0)} / median ${p.median.toFixed(0)} / max ${p.max.toFixed(0)} ms; ` +
          `CPU time ${cpuRatio.toFixed(2)}× (median ${summarize(aCpu).median.toFixed(0)} vs ${summarize(bCpu).median.toFixed(0)} ms); ` +
          `CLI also writes sessions, hourly counts and quality; daily counts ${agree}; tsc build ${(buildMs / 1000).toFixed(0)} s`,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** "agree", or what differs between the CLI's summary lines and the baseline's days. */
function sameDailyCounts(cliStdout: string, baselineStdout: string): string {
  // The loop counts MACs: compare with the summary's MAC-level counts (`macs`), not the people estimate.
  const cli = cliStdout
    .split("\n")
    .filter((line) => line.includes('"type":"summary"'))
    .map((line) => {
      const d = JSON.parse(line) as { date: string; visits: number; macs: { visitors: number; passersBy: number } };
      return { date: d.date, visitors: d.macs.visitors, visits: d.visits, passersBy: d.macs.passersBy };
    });
  const loop = (JSON.parse(baselineStdout) as { days: HandDay[] }).days;
  const key = (d: { date: string; visitors: number; visits: number; passersBy: number }): string =>
    `${d.date} ${d.visitors}/${d.visits}/${d.passersBy}`;
  // A CLI that printed no day at all did not analyze anything: no ratio is better than a false one.
  if (cli.length === 0) throw new Error(`footfall analyze printed no summary line (stdout began: ${JSON.stringify(cliStdout.slice(0, 200))})`);
  const x = cli.map(key).join(", ");
  const y = loop.map(key).join(", ");
  return x === y ? "agree" : `DIFFER (CLI ${x}; loop ${y} — visitors/visits/passers-by)`;
}

/** The baseline program: read the file at once, JSON.parse each line, the hand-written loop. */
function baselineMain(file: string): void {
  const text = readFileSync(file, "utf8");
  const records: unknown[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (end > start) records.push(JSON.parse(text.slice(start, end)));
    start = end + 1;
  }
  const result = handWrittenLoop(records);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (process.argv[2] === "--baseline" && process.argv[3] !== undefined) {
  baselineMain(process.argv[3]);
} else if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await analyzeCliBench());
}
