/**
 * Shared bench harness: every bench file exports `default async (): Promise<BenchRow[]>`,
 * and `bench/run.ts` runs them all into one table. Figures are ratios of two things
 * measured in the same run (absolute rates drift on a shared 2-core machine).
 */
import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { performance } from "node:perf_hooks";

/** One row of the results table. */
export interface BenchRow {
  /** What is measured, e.g. "Decode (records/s)". */
  readonly figure: string;
  /** footfall's figure, formatted (e.g. "1.92 M rec/s"). */
  readonly footfall: string;
  /** The baseline's figure, formatted. */
  readonly baseline: string;
  /** footfall ÷ baseline in the direction the goal is stated. */
  readonly ratio: number;
  /** The goal, e.g. "≤ 1.0× parse time". */
  readonly goal: string;
  /** Whether the goal is met in this run. */
  readonly met: boolean;
  /** Optional spread or note, e.g. "min 1.1 / max 1.4". */
  readonly note?: string;
  /**
   * Row number in issue 9's table (1 decode … 7 simulator), so the runner prints rows in that
   * order whichever file produced them. When absent, the runner infers it from `figure`.
   */
  readonly row?: number;
}

/** Timing summary of repeated runs, milliseconds. */
export interface Timing {
  readonly min: number;
  readonly median: number;
  readonly max: number;
}

/**
 * Wall-clock timing of repeated runs plus the CPU time (user + system, all of the process's
 * threads) of the same runs. While other work shares the cores, wall times stretch by however
 * long the process waited for a core; CPU time does not, so for CPU-bound work in this process
 * `cpu` is the steadier figure (for work that waits on another process, such as a loopback
 * server, only wall time means anything).
 */
export interface Measured extends Timing {
  /** CPU time of the same runs, ms. */
  readonly cpu: Timing;
  /** The wall times themselves, ms, in the order they ran (for {@link timeRatio}). */
  readonly samples: readonly number[];
}

/** Options of {@link time} and {@link timePair}. */
export interface TimeOptions {
  /** Timed runs (per contender). @default 7 */
  readonly runs?: number;
  /** Untimed runs first (per contender), for the JIT and caches. @default 2 */
  readonly warmup?: number;
  /**
   * A full GC before each timed run (when `--expose-gc` is on), so that a run pays for its own
   * garbage only. Off for work measured in its steady state: a forced full GC also clears maps
   * only the previous run's dead objects had, and with them the optimized code that embeds them
   * (V8's "weak objects" deoptimisation), which a long-running stream never goes through.
   * @default true
   */
  readonly forceGc?: boolean;
}

const forceGc = (globalThis as { gc?: () => void }).gc;

/**
 * Min, median and max of timings, ms (the input is left as it is).
 *
 * @example
 * summarize([120, 100, 110]).median; // 110
 */
export function summarize(samples: readonly number[]): Timing {
  const s = samples.toSorted((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
}

/**
 * How long A took against B, from runs made side by side: the median over i of `a[i] / b[i]`
 * (run i of each ran next to the other). On a machine whose speed drifts by tens of per cent
 * within minutes (a shared VM), a slow minute slows both runs of a pair alike, so their ratio
 * keeps steady where the ratio of the two medians, taken from runs minutes apart, does not. A
 * rate ratio is its inverse (exact for an odd number of runs).
 *
 * @example
 * timeRatio([100, 150, 110], [200, 290, 230]); // 0.5 (the ratio of medians would say 110 / 230 = 0.48)
 */
export function timeRatio(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) throw new RangeError(`timeRatio: runs must pair up, got ${a.length} and ${b.length}`);
  const ratios = a.map((x, i) => x / b[i]!).sort((x, y) => x - y);
  return ratios[Math.floor(ratios.length / 2)]!;
}

/** One timed run: a full GC first when `--expose-gc` is on (run.ts sets it), so the run pays for its own garbage only. */
async function sample(fn: () => unknown, wall: number[], cpu: number[], gc: boolean): Promise<void> {
  if (gc) forceGc?.();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  wall.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
}

/**
 * Runs `fn` `warmup` times untimed, then `runs` times timed; returns min/median/max ms of wall
 * time and of CPU time.
 *
 * @example
 * const t = await time(() => JSON.parse(text), { runs: 7 });
 */
export async function time(fn: () => unknown, options: TimeOptions = {}): Promise<Measured> {
  const runs = options.runs ?? 7;
  const warmup = options.warmup ?? 2;
  for (let i = 0; i < warmup; i++) await fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) await sample(fn, wall, cpu, options.forceGc ?? true);
  return { ...summarize(wall), cpu: summarize(cpu), samples: wall };
}

/**
 * Times two contenders interleaved so drift hits both alike: A B, B A, A B, … (the order
 * alternates, so neither always runs right after the other's allocations), each timed run after
 * a full GC when `--expose-gc` is on (unless `forceGc: false`), so no run is charged for
 * collecting the other's garbage.
 *
 * @example
 * const [a, b] = await timePair(() => decode(pages), () => parse(pages));
 * const ratio = timeRatio(a.samples, b.samples); // wall time, pair by pair; a.cpu.median / b.cpu.median for CPU time
 */
export async function timePair(a: () => unknown, b: () => unknown, options: TimeOptions = {}): Promise<[Measured, Measured]> {
  const runs = options.runs ?? 7;
  const warmup = options.warmup ?? 2;
  const gc = options.forceGc ?? true;
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const wa: number[] = [];
  const ca: number[] = [];
  const wb: number[] = [];
  const cb: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      await sample(a, wa, ca, gc);
      await sample(b, wb, cb, gc);
    } else {
      await sample(b, wb, cb, gc);
      await sample(a, wa, ca, gc);
    }
  }
  return [
    { ...summarize(wa), cpu: summarize(ca), samples: wa },
    { ...summarize(wb), cpu: summarize(cb), samples: wb },
  ];
}

/**
 * Formats a rate, e.g. `rate(1_920_000, "rec/s")` → "1.92 M rec/s".
 *
 * @example
 * rate(1500, "pages/s"); // "1.50 k pages/s"
 */
export function rate(value: number, unit: string): string {
  if (value >= 1e6) return `${(value / 1e6).toFixed(2)} M ${unit}`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(2)} k ${unit}`;
  return `${value.toFixed(1)} ${unit}`;
}

/**
 * mulberry32: a small seeded PRNG, so every run benches the same data. Uniform in [0, 1).
 *
 * @example
 * const random = prng(1); random(); // same value on every run
 */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A byte as two lowercase hex digits (MAC octets).
 *
 * @example
 * hex2(10); // "0a"
 */
export const hex2 = (n: number): string => n.toString(16).padStart(2, "0");

/** What {@link compileForBench} built. */
export interface BenchBuild<K extends string> {
  /** The project's root directory. */
  readonly root: string;
  /** The compiled `.js` of each file asked for, by its name. */
  readonly js: Readonly<Record<K, string>>;
  /** How long tsc took, ms. */
  readonly buildMs: number;
}

/**
 * Compiles `src/` and `files` (by name: paths from the project root, `.ts`) with tsc, as `npm run build`
 * does (and, as it does, bundles @stdlib's quantiles, `npm run bundle:quantiles`, packs the OUI
 * registry, `npm run pack:oui`, and bundles the CLI, `npm run bundle:cli`), into `node_modules/.cache/<cacheName>/out`: inside node_modules, so the compiled files
 * find the project's dependencies by walking up; a directory per bench, so two can build at
 * once; away from dist/, which others may be rebuilding at the same moment; and with --noCheck
 * (the bench measures code; a colleague's half-typed file elsewhere must not stop it). Throws
 * when tsc did not emit one of them.
 *
 * @example
 * const { js, buildMs } = await compileForBench("footfall-bench", { cli: "src/cli/main.ts", baseline: "bench/analyze-cli.ts" });
 * js.cli; // ".../node_modules/.cache/footfall-bench/out/src/cli/main.js"
 */
export async function compileForBench<K extends string>(cacheName: string, files: Readonly<Record<K, string>>): Promise<BenchBuild<K>> {
  const { spawnSync } = await import("node:child_process");
  const { existsSync } = await import("node:fs");
  const { mkdir, rm, writeFile } = await import("node:fs/promises");
  const { dirname, join, resolve } = await import("node:path");
  const { fileURLToPath } = await import("node:url");
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const buildDir = join(root, "node_modules", ".cache", cacheName);
  const outDir = join(buildDir, "out");
  const t0 = performance.now();
  await rm(outDir, { recursive: true, force: true });
  await mkdir(buildDir, { recursive: true });
  const tsconfig = join(buildDir, "tsconfig.json");
  const config = {
    extends: join(root, "tsconfig.json"),
    compilerOptions: { noEmit: false, rootDir: root, outDir, declaration: false, sourceMap: false },
    include: [join(root, "src"), ...Object.values<string>(files).filter((f) => !f.startsWith("src/")).map((f) => join(root, f))],
  };
  await writeFile(tsconfig, JSON.stringify(config, null, 2));
  const tsc = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", tsconfig, "--noCheck"], { encoding: "utf8" });
  const js = Object.fromEntries(Object.entries<string>(files).map(([name, f]) => [name, join(outDir, f.replace(/\.ts$/, ".js"))])) as Record<K, string>;
  for (const file of Object.values<string>(js)) {
    if (!existsSync(file)) throw new Error(`tsc did not emit ${file} (exit ${tsc.status}): ${tsc.stdout}${tsc.stderr}`);
  }
  const bundle = spawnSync("npm", ["run", "--silent", "bundle:quantiles", "--", `--outfile=${join(outDir, "src", "stats", "stdlibQuantiles.js")}`], { cwd: root, encoding: "utf8" });
  if (bundle.status !== 0) throw new Error(`npm run bundle:quantiles failed (exit ${bundle.status}): ${bundle.stdout}${bundle.stderr}`);
  const oui = spawnSync("npm", ["run", "--silent", "pack:oui", "--", join(outDir, "src")], { cwd: root, encoding: "utf8" });
  if (oui.status !== 0) throw new Error(`npm run pack:oui failed (exit ${oui.status}): ${oui.stdout}${oui.stderr}`);
  const cli = spawnSync("npm", ["run", "--silent", "bundle:cli", "--", join(outDir, "src")], { cwd: root, encoding: "utf8" });
  if (cli.status !== 0) throw new Error(`npm run bundle:cli failed (exit ${cli.status}): ${cli.stdout}${cli.stderr}`);
  // Node looks for a file's package.json no further up than node_modules/: without this one the
  // compiled files have no "type", and Node parses each once more to detect ES module syntax,
  // which an installed footfall (its package.json says "module") does not.
  await writeFile(join(outDir, "package.json"), '{ "type": "module" }\n');
  return { root, js, buildMs: performance.now() - t0 };
}

/**
 * Preloaded into every process {@link runNode} starts: writes the process's CPU time (ms) to
 * fd 3 on exit. `--import` preloads run in worker threads too, whose `exit` would write a second
 * figure after the first (read as NaN): only the main thread writes.
 */
const CPU_REPORT = `data:text/javascript,${encodeURIComponent(
  'import{writeSync}from"node:fs";import{isMainThread}from"node:worker_threads";if(isMainThread)process.on("exit",()=>{const u=process.cpuUsage();try{writeSync(3,String((u.user+u.system)/1000))}catch{}});',
)}`;

/** What {@link runNode} measured of one process. */
export interface ProcessRun {
  /** Wall time from spawn to exit, ms. */
  readonly ms: number;
  /** CPU time, user + system of all its threads, ms: the steadier figure when other work shares the two cores. */
  readonly cpuMs: number;
  /** Its standard output when captured, else "". */
  readonly stdout: string;
}

/**
 * Runs `node args…` as a whole process, as a user runs a command, and measures it: wall time,
 * CPU time (reported on fd 3 by a tiny preload every contender gets) and, when `capture`,
 * stdout (else stdout goes to /dev/null, so writing it costs what it costs a user). A pseudonym
 * key is set (the cost measured includes pseudonyms) without a key file in the home. Rejects
 * with the first 2000 characters of stderr when the process exits with a status other than 0.
 *
 * @example
 * const { ms, cpuMs } = await runNode(["dist/cli/main.js", "analyze", "--input", "day.ndjson"], false);
 */
export function runNode(args: readonly string[], capture: boolean): Promise<ProcessRun> {
  return new Promise((done, fail) => {
    const devNull = capture ? undefined : openSync("/dev/null", "w");
    const start = performance.now();
    const env = { ...process.env, FOOTFALL_MAC_KEY: process.env["FOOTFALL_MAC_KEY"] ?? "62656e63682070736575646f6e796d73" };
    const child = spawn(process.execPath, ["--import", CPU_REPORT, ...args], { env, stdio: ["ignore", devNull ?? "pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let cpu = "";
    child.stdout?.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr?.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    (child.stdio[3] as NodeJS.ReadableStream).setEncoding("utf8").on("data", (c: string) => (cpu += c));
    child.on("error", fail);
    child.on("close", (code) => {
      const ms = performance.now() - start;
      if (devNull !== undefined) closeSync(devNull);
      if (code !== 0) fail(new Error(`node ${args.join(" ")} exited with ${code}: ${stderr.slice(0, 2000)}`));
      else done({ ms, cpuMs: Number(cpu), stdout });
    });
  });
}
