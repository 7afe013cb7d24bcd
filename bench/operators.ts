/**
 * Analytics benches (issue 9, rows 2, 3 and 6):
 *
 * 2. Operator chain — decode → sessionize → classify → dwell / visits / proximity through the RxJS
 *    operators — vs the plain hand-written loop of bench/baselines/handWrittenLoop.ts doing the
 *    same work on the same records (goal ≥ 0.8× the loop's throughput).
 * 3. `analyze()` on an array vs the same operator chain: they share every kernel, so the ratio is
 *    the RxJS layer's cost alone. Beside it, `analyze()` with `liveOccupancy` vs without: what
 *    occupancy as the day goes on costs (informational).
 * 6. Memory of the operator chain over 1 M and 4 M records from a deterministic generator (a shop
 *    with a few hundred devices present at a time): peak RSS of a run over 4 M records vs one over
 *    1 M (goal: flat, ≤ 1.2×, since what the chain holds is bounded by the devices present, not by
 *    how many records went by). Each run is a fresh child process (this file with `--memory N`)
 *    that reads its own peak from `process.resourceUsage().maxRSS` when the run ends, so neither
 *    run's peak can hide in the other's or in rows 2–3's. The notes give, as context, the floor
 *    every process pays (peak RSS of a 1 k-record run) and the largest post-GC heap of each run (a
 *    forced GC every 250 k records).
 *
 * Records for 2 and 3 are one simulated shop-day (seed 1, default world shape), parsed objects.
 *
 * Run alone: `npx tsx bench/operators.ts` (add `--expose-gc` via `node --expose-gc --import tsx`
 * for exact timings; the memory children always get it).
 */
import { spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { connect, from, ignoreElements, merge, type Observable } from "rxjs";
import { analyze } from "../src/analysis/analyze.ts";
import { createWorld } from "../src/sim/createWorld.ts";
import type { RawSignal } from "../src/contract/rawSignal.ts";
import { decodeSignals } from "../src/operators/decodeSignals.ts";
import { sessionize } from "../src/operators/sessionize.ts";
import { classifyVisits } from "../src/operators/classifyVisits.ts";
import { countVisits } from "../src/operators/countVisits.ts";
import { measureDwell } from "../src/operators/measureDwell.ts";
import type { VisitCounts } from "../src/kernels/visits/VisitCounter.ts";
import { handWrittenLoop } from "./baselines/handWrittenLoop.ts";
import { hex2, prng, rate, timePair, timeRatio, type BenchRow } from "./lib.ts";

/** The whole chain over a source of raw records; resolves when it completes, with the daily counts. */
export function runChain(source: Observable<unknown>): VisitCounts[] {
  const days: VisitCounts[] = [];
  let error: unknown;
  source
    .pipe(
      decodeSignals(),
      // sessionize's engine computes each session's proximity (what estimateProximity's
      // summaries were) in the same pass, so proximity is part of this work.
      sessionize(),
      classifyVisits(),
      connect((sessions$) =>
        merge(sessions$.pipe(countVisits()), sessions$.pipe(measureDwell(), ignoreElements())),
      ),
    )
    .subscribe({ next: (c) => days.push(c as VisitCounts), error: (e: unknown) => (error = e) });
  if (error !== undefined) throw error;
  return days;
}

/**
 * An endless-looking shop: devices arrive about every 4 s and stay 1–60 min (a few stay for
 * hours), probe every 10–60 s and are heard by 1–3 of 3 sensors; universal MACs come from a pool of
 * 5,000 phones (customers return), randomized ones are fresh per visit. Yields `count` raw records
 * in time order, generated lazily (a heap of next-probe events), so the generator itself holds only
 * the devices present.
 */
export function* generateRecords(count: number, seed = 7): Generator<RawSignal> {
  const random = prng(seed);
  const sensors = ["b8:27:eb:00:00:01", "b8:27:eb:00:00:02", "b8:27:eb:00:00:03"];
  const pool: string[] = [];
  for (let i = 0; i < 5000; i++) pool.push(`f0:18:98:${hex2(i >> 8)}:${hex2(i & 255)}:${hex2(Math.floor(random() * 256))}`);
  interface Device {
    mac: string;
    local: boolean;
    next: number;
    leave: number;
    gap: number;
    level: number;
  }
  // Binary min-heap of devices by next probe time.
  const heap: Device[] = [];
  const push = (d: Device): void => {
    heap.push(d);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.next <= heap[i]!.next) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  };
  const pop = (): Device => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && heap[l]!.next < heap[m]!.next) m = l;
        if (r < heap.length && heap[r]!.next < heap[m]!.next) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i]!, heap[m]!];
        i = m;
      }
    }
    return top;
  };
  let now = Date.UTC(2026, 10, 16, 0, 0);
  let nextArrival = now;
  const arrive = (at: number): void => {
    const local = random() < 0.45;
    const mac = local
      ? `${hex2((Math.floor(random() * 256) & 0xfc) | 0x02)}:${hex2(Math.floor(random() * 256))}:${hex2(Math.floor(random() * 256))}:${hex2(Math.floor(random() * 256))}:${hex2(Math.floor(random() * 256))}:${hex2(Math.floor(random() * 256))}`
      : pool[Math.floor(random() * pool.length)]!;
    const stay = random() < 0.03 ? 3 * 3_600_000 * random() : 60_000 + 59 * 60_000 * random() * random();
    push({ mac, local, next: at, leave: at + stay, gap: 10_000 + 50_000 * random(), level: -45 - 40 * random() });
  };
  // Equipment that never leaves.
  for (let k = 0; k < 3; k++) push({ mac: `00:1b:63:00:00:${hex2(k)}`, local: false, next: now + k, leave: Number.POSITIVE_INFINITY, gap: 30_000, level: -55 });
  let produced = 0;
  while (produced < count) {
    while (nextArrival <= (heap[0]?.next ?? nextArrival)) {
      arrive(nextArrival);
      nextArrival += Math.floor(-Math.log(1 - random()) * 4_000);
    }
    const d = pop();
    now = d.next;
    const heard = 1 + Math.floor(random() * 3);
    for (let s = 0; s < heard && produced < count; s++) {
      const rssi = Math.max(-95, Math.min(-30, Math.round(d.level - 6 * s + 8 * (random() - 0.5))));
      const ts = now + s;
      yield {
        row_key: `101:${ts.toString(16).padStart(16, "0")}`,
        device_id: d.mac,
        rssi,
        square_mac: sensors[s]!,
        ts,
        local: d.local,
      };
      produced++;
    }
    d.next = now + Math.max(500, Math.round(d.gap * (0.5 + random())));
    if (d.next <= d.leave) push(d);
  }
}

function gcNow(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** What one memory run reports (row 6). */
interface MemoryReport {
  /** Records the chain consumed. */
  readonly records: number;
  /** Peak resident set size of the whole process, bytes (`resourceUsage().maxRSS` is in KiB). */
  readonly peakRss: number;
  /** Largest heap in use right after a checkpoint's forced GC, bytes (without `--expose-gc`, unforced). */
  readonly maxHeap: number;
  /** Whether the checkpoints could force a GC (`--expose-gc`). */
  readonly exactGc: boolean;
}

/**
 * Runs the chain over `total` generated records, noting the heap after a forced GC every `every`
 * records; meant to be the only work of its process, so the process's peak RSS is the run's.
 */
function memoryRun(total: number, every: number): MemoryReport {
  let maxHeap = 0;
  let n = 0;
  function* counted(): Generator<RawSignal> {
    for (const r of generateRecords(total)) {
      n++;
      if (n % every === 0) {
        gcNow();
        maxHeap = Math.max(maxHeap, process.memoryUsage().heapUsed);
      }
      yield r;
    }
  }
  runChain(from(counted()));
  return {
    records: n,
    peakRss: process.resourceUsage().maxRSS * 1024,
    maxHeap,
    exactGc: typeof (globalThis as { gc?: unknown }).gc === "function",
  };
}

/**
 * {@link memoryRun} over `total` records in a fresh child process (this file with `--memory`),
 * started the way bench/run.ts starts bench files, so its peak RSS is its own and not the
 * parent's or another run's. Resolves with the report the child prints as its last line.
 */
function memoryRunInChild(total: number): Promise<MemoryReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--expose-gc", fileURLToPath(import.meta.url), "--memory", String(total)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`memory run over ${total} records exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "") as MemoryReport);
      } catch {
        reject(new Error(`memory run over ${total} records printed no report`));
      }
    });
  });
}

const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`;

export default async function operatorsBench(): Promise<BenchRow[]> {
  // Memory first, one run after the other (two runs at once would share the two cores and the
  // machine's memory).
  // A 1 k-record run gives the floor every run pays (Node, tsx, the modules), so the note can say
  // how much of each peak is the chain's own.
  const floor = await memoryRunInChild(1_000);
  const mem1 = await memoryRunInChild(1_000_000);
  const mem4 = await memoryRunInChild(4_000_000);
  if (mem1.records !== 1_000_000 || mem4.records !== 4_000_000) throw new Error(`memory runs consumed ${mem1.records} and ${mem4.records} records`);

  // The simple world (one MAC per visit) the row was first measured on, so its figures compare
  // across changes of the simulator's default world (now real phones).
  const world = createWorld({ seed: 1, shops: 1, rotation: "off" });
  const records: RawSignal[] = [...world.rawSignals(world.shops[0]!.id)];
  const n = records.length;

  // Sanity: the chain and the loop agree on the daily counts.
  const chainDays = runChain(from(records));
  const loopDays = handWrittenLoop(records).days;
  const agree =
    chainDays.length === loopDays.length &&
    chainDays.every((c, i) => c.visitors === loopDays[i]!.visitors && c.visits === loopDays[i]!.visits && c.passersBy === loopDays[i]!.passersBy);

  // Throughput is a stream's steady state: no forced GC between runs, and runs enough for the
  // JIT. A forced full GC clears maps only the previous run's dead objects had (each run builds
  // a new chain), and with them the optimized code of the engine that embeds them; a running
  // stream never goes through that, the plain loop barely has such code. Measured that way too,
  // for the notes.
  const [chain, loop] = await timePair(
    () => runChain(from(records)),
    () => handWrittenLoop(records),
    { runs: 7, warmup: 3, forceGc: false },
  );
  const [chainGc, loopGc] = await timePair(
    () => runChain(from(records)),
    () => handWrittenLoop(records),
    { runs: 5, warmup: 1 },
  );
  const [batch, chain2] = await timePair(
    () => analyze(records, { quality: false, hourly: false }),
    () => runChain(from(records)),
    { runs: 5, warmup: 1 },
  );
  // What a live view's occupancy costs on top (LiveOccupancy re-derives the day so far at every interval).
  const [withLive, withoutLive] = await timePair(
    () => analyze(records, { quality: false, hourly: false, liveOccupancy: true }),
    () => analyze(records, { quality: false, hourly: false }),
    { runs: 5, warmup: 1 },
  );
  const liveIntervals = (await analyze(records, { quality: false, hourly: false, liveOccupancy: true })).liveOccupancy.length;
  const chainRate = n / (chain.median / 1000);
  const loopRate = n / (loop.median / 1000);
  const batchRate = n / (batch.median / 1000);
  const chain2Rate = n / (chain2.median / 1000);
  // Rate ratios, run pair by run pair.
  const vsLoop = 1 / timeRatio(chain.samples, loop.samples);

  return [
    {
      row: 2,
      figure: "Operator chain: decode → sessionize → classify → dwell/visits/proximity (records/s)",
      footfall: rate(chainRate, "rec/s"),
      baseline: `${rate(loopRate, "rec/s")} (hand-written loop)`,
      ratio: vsLoop,
      goal: "≥ 0.8× the loop's throughput",
      met: vsLoop >= 0.8,
      note:
        `${n} records (1 shop-day), steady state (7 runs after 3, no forced GC); chain min/max ${chain.min.toFixed(0)}/${chain.max.toFixed(0)} ms, loop ${loop.min.toFixed(0)}/${loop.max.toFixed(0)} ms; daily counts ${agree ? "agree" : "DIFFER"}; ` +
        `a fresh chain after a forced full GC (5 runs after 1): chain median ${chainGc.median.toFixed(0)} ms, loop ${loopGc.median.toFixed(0)} ms = ${(1 / timeRatio(chainGc.samples, loopGc.samples)).toFixed(2)}×`,
    },
    {
      row: 3,
      figure: "Batch vs stream: analyze() on an array vs the operator chain (records/s)",
      footfall: rate(chain2Rate, "rec/s"),
      baseline: `${rate(batchRate, "rec/s")} (analyze())`,
      ratio: 1 / timeRatio(chain2.samples, batch.samples),
      goal: "informational: the RxJS layer's cost (1.0 = none)",
      met: true,
      note: `same kernels; analyze min/max ${batch.min.toFixed(0)}/${batch.max.toFixed(0)} ms`,
    },
    {
      row: 3,
      figure: "Live occupancy: analyze() with liveOccupancy vs without (records/s)",
      footfall: rate(n / (withLive.median / 1000), "rec/s"),
      baseline: `${rate(n / (withoutLive.median / 1000), "rec/s")} (without)`,
      ratio: timeRatio(withoutLive.samples, withLive.samples),
      goal: "informational: what occupancy as the day goes on costs (1.0 = nothing)",
      met: true,
      note: `${liveIntervals} intervals emitted, each from the day so far; with min/max ${withLive.min.toFixed(0)}/${withLive.max.toFixed(0)} ms, without ${withoutLive.min.toFixed(0)}/${withoutLive.max.toFixed(0)} ms`,
    },
    {
      row: 6,
      figure: "Memory: operator chain, peak RSS over 4 M records vs over 1 M",
      footfall: mb(mem4.peakRss),
      baseline: `${mb(mem1.peakRss)} (1 M records)`,
      ratio: mem4.peakRss / mem1.peakRss,
      goal: "flat (≤ 1.2×): bounded by active devices",
      met: mem4.peakRss / mem1.peakRss <= 1.2,
      note: `each run in a fresh process, peak = resourceUsage().maxRSS at its end; floor (a 1 k-record run: Node, tsx, modules) ${mb(floor.peakRss)}, so above it +${mb(mem4.peakRss - floor.peakRss)} vs +${mb(mem1.peakRss - floor.peakRss)}; largest post-GC heap (every 250 k records) ${mb(mem4.maxHeap)} over 4 M vs ${mb(mem1.maxHeap)} over 1 M${mem1.exactGc && mem4.exactGc ? "" : " (no --expose-gc: heap without forced GC)"}`,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href && process.argv[2] === "--memory") {
  // A memory child (see memoryRunInChild): one run, its report as the last line.
  const total = Number(process.argv[3]);
  if (!Number.isInteger(total) || total <= 0) throw new Error("usage: operators.ts --memory <records>");
  process.stdout.write(`\n${JSON.stringify(memoryRun(total, 250_000))}\n`);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const rows = await operatorsBench();
  for (const r of rows) {
    console.log(`${r.figure}\n  footfall ${r.footfall} | baseline ${r.baseline} | ratio ${r.ratio.toFixed(2)} | goal ${r.goal} | ${r.met ? "met" : "NOT met"}${r.note ? ` | ${r.note}` : ""}`);
  }
}
