/**
 * Backfill over loopback: the signal source (`signals()` over `createClient`) paging through
 * one simulator shop-day, next to a minimal hand-written loop that requests the same pages
 * (`fetch` + `JSON.parse`, same `since` rule, no validation, no retries, no RxJS); and the
 * source with `slices` 2 and 4 next to one slice; and the whole path a user runs, pages to people
 * (`footfall analyze --shop`), next to reading the same pages and nothing else.
 *
 * The simulator runs in a child process (`startSimulator` on 127.0.0.1, default shop size),
 * so serving and consuming pages can use both cores, as they would against a real service:
 * otherwise parallel slices could only overlap one event loop with itself.
 * Goals: the source reaches ≥ 0.9× the plain loop's rate; slices > 1 are faster than one.
 *
 * Run alone: `npx tsx bench/backfill.ts`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { main } from "../src/cli/main.ts";
import { pathToFileURL, fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { createClient } from "../src/client/createClient.ts";
import { millisToRts, stepRts } from "../src/codec/rts.ts";
import type { Client } from "../src/client/Client.ts";
import { signals } from "../src/source/signals.ts";
import { rate, timePair, timeRatio, type BenchRow, type Timing } from "./lib.ts";

const here = dirname(fileURLToPath(import.meta.url));
const SEED = 7;
// 3 timed runs a pair: a default shop-day is ~740 k records, 7 s a read on a slow VM, and the file has three pairs.
const RUNS = 3;
// The source against the loop, the row with a bar, is the noisiest pair on a shared VM: 5 timed runs a side.
const RUNS_VS_LOOP = 5;

interface SimInfo {
  readonly signalUrl: string;
  readonly email: string;
  readonly token: string;
  readonly shopId: number;
  readonly startMs: number;
  readonly endMs: number;
  readonly count: number;
}

/** Starts the simulator in a child process; resolves once it listens. */
async function startChildSimulator(latencyMs: number): Promise<{ info: SimInfo; child: ChildProcess }> {
  const sim = pathToFileURL(join(here, "../src/sim/service/startSimulator.ts")).href;
  const code = `
    import { startSimulator } from ${JSON.stringify(sim)};
    const s = await startSimulator({ seed: ${SEED}, world: { shops: 1 }, faults: { latencyMs: ${latencyMs} } });
    const shop = s.world.shops[0];
    process.stdout.write(JSON.stringify({ signalUrl: s.signalUrl, email: s.email, token: s.token, shopId: shop.id,
      startMs: s.world.startMs, endMs: s.world.endMs, count: s.world.signalCount(shop.id) }) + "\\n");
    process.stdin.on("end", () => s.close().then(() => process.exit(0)));
    process.stdin.resume();
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    stdio: ["pipe", "pipe", "inherit"],
    cwd: join(here, ".."),
  });
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => {
      lines.close();
      resolve(line);
    });
    child.once("exit", (status) => reject(new Error(`simulator child exited with ${status}`)));
  });
  return { info: JSON.parse(first) as SimInfo, child };
}

/** The baseline: the same pages with nothing but fetch and JSON.parse. */
async function plainLoop(info: SimInfo): Promise<number> {
  const headers = { "x-user-email": info.email, "x-user-token": info.token };
  const until = millisToRts(info.endMs);
  let since = stepRts(millisToRts(info.startMs), -1);
  let records = 0;
  for (;;) {
    const res = await fetch(`${info.signalUrl}/api/v1/shops/${info.shopId}/wifi_signals?since=${since}&limit=200`, { headers });
    const body = JSON.parse(await res.text()) as { signals: { row_key: string }[] };
    const page = body.signals;
    records += page.length;
    if (page.length < 200) return records;
    const last = page[page.length - 1]!.row_key;
    const rts = last.slice(last.lastIndexOf(":") + 1);
    if (rts >= until) return records;
    since = stepRts(rts, -1);
  }
}

/** Stops the simulator child: closing its stdin ends it; a kill after 5 s if it hangs. */
function stopChild(child: ChildProcess): Promise<void> {
  child.stdin?.end();
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => child.kill(), 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const perSec = (records: number, t: Timing): number => (records / t.median) * 1000;
const spread = (name: string, t: Timing): string => `${name} min ${t.min.toFixed(0)} / median ${t.median.toFixed(0)} / max ${t.max.toFixed(0)} ms`;

/**
 * Measures records/s of the source vs the plain loop, and of slices 2 and 4 vs one slice;
 * then slices 4 vs 1 against a service with 5 ms of latency per request.
 *
 * @example
 * const rows = await backfillBench();
 */
export default async function backfillBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  let sink = 0;
  /** One backfill of [from, to) through the source; checks the record count when known. */
  const source = (client: Client, info: SimInfo, from: number, to: number, slices: number, expect?: number) => async (): Promise<number> => {
    let n = 0;
    await new Promise<void>((resolve, reject) =>
      signals(client, { shopId: info.shopId, since: from, until: to, slices }).subscribe({ next: () => n++, error: reject, complete: resolve }),
    );
    if (expect !== undefined && n !== expect) throw new Error(`source delivered ${n} of ${expect} records`);
    sink += n;
    return n;
  };
  const clientFor = (info: SimInfo): Client =>
    createClient({ baseUrl: info.signalUrl, signalUrl: info.signalUrl, email: info.email, token: info.token });

  {
    const { info, child } = await startChildSimulator(0);
    try {
      const client = clientFor(info);
      const day = (slices: number) => source(client, info, info.startMs, info.endMs, slices, info.count);
      const [src, base] = await timePair(day(1), async () => void (sink += await plainLoop(info)), { runs: RUNS_VS_LOOP, warmup: 1 });
      const [two, one2] = await timePair(day(2), day(1), { runs: RUNS, warmup: 1 });
      const [four, one4] = await timePair(day(4), day(1), { runs: RUNS, warmup: 1 });
      const pages = Math.ceil(info.count / 200);
      const r1 = 1 / timeRatio(src.samples, base.samples);
      rows.push({
        figure: "Backfill over loopback (records/s): source vs fetch + JSON.parse loop",
        footfall: rate(perSec(info.count, src), "rec/s"),
        baseline: `${rate(perSec(info.count, base), "rec/s")} plain loop`,
        ratio: Number(r1.toFixed(2)),
        goal: "≥ 0.9× loop rate",
        met: r1 >= 0.9,
        note: `one shop-day, ${info.count} records, ~${pages} pages of 200, simulator in a child process; ${spread("source", src)}, ${spread("loop", base)}`,
      });
      for (const [k, t, ref] of [
        [2, two, one2],
        [4, four, one4],
      ] as const) {
        const r = 1 / timeRatio(t.samples, ref.samples);
        rows.push({
          figure: `Backfill over loopback (records/s): slices ${k} vs 1`,
          footfall: rate(perSec(info.count, t), "rec/s"),
          baseline: `${rate(perSec(info.count, ref), "rec/s")} one slice`,
          ratio: Number(r.toFixed(2)),
          goal: "> 1.0× one slice (2 cores)",
          met: r > 1,
          note: `no added latency: CPU-bound on both sides; ${spread(`slices ${k}`, t)}, ${spread("one slice", ref)}`,
        });
      }
      // The whole path a user runs, pages to people: `footfall analyze --shop` (the CLI's own code,
      // in this process) against the same pages fetched and parsed with nothing else done.
      const argv = ["analyze", "--shop", String(info.shopId), "--since", new Date(info.startMs).toISOString(), "--until", new Date(info.endMs).toISOString()];
      const connection = ["--signal-url", info.signalUrl, "--base-url", info.signalUrl, "--email", info.email, "--token", info.token];
      const analyzeShop = async (): Promise<void> => {
        const out = new PassThrough();
        let summaries = 0;
        out.on("data", (chunk: Buffer) => void (summaries += chunk.toString("utf8").split('{"type":"summary"').length - 1));
        const status = await main([...argv, ...connection, "--format", "ndjson"], { stdout: out, stderr: new PassThrough(), env: {}, signal: new AbortController().signal });
        if (status !== 0 || summaries === 0) throw new Error(`footfall analyze --shop: exit ${status}, ${summaries} summary lines`);
      };
      const [cli, pagesOnly] = await timePair(analyzeShop, async () => void (sink += await plainLoop(info)), { runs: RUNS, warmup: 1 });
      const rc = timeRatio(cli.samples, pagesOnly.samples);
      rows.push({
        figure: "Pages to people over loopback: `footfall analyze --shop` vs fetch + JSON.parse of the same pages (records/s)",
        footfall: rate(perSec(info.count, cli), "rec/s"),
        baseline: `${rate(perSec(info.count, pagesOnly), "rec/s")} plain page loop`,
        ratio: Number(rc.toFixed(2)),
        goal: "informational: what the analysis adds to reading the pages (time; 1.0 = nothing)",
        met: true,
        note: `one shop-day, ${info.count} records, the CLI's code in this process (sessions, people, proximity, quality, NDJSON output), simulator in a child process; ${spread("analyze --shop", cli)}, ${spread("page loop", pagesOnly)}`,
      });
    } finally {
      await stopChild(child);
    }
  }
  {
    const latencyMs = 5;
    const { info, child } = await startChildSimulator(latencyMs);
    try {
      const client = clientFor(info);
      // Six busy hours (local noon to 18:00) keep this row short.
      const from = info.startMs + 12 * 3_600_000;
      const to = info.startMs + 18 * 3_600_000;
      const count = await source(client, info, from, to, 1)();
      const [four, one] = await timePair(source(client, info, from, to, 4, count), source(client, info, from, to, 1, count), {
        runs: 3,
        warmup: 1,
      });
      const r = 1 / timeRatio(four.samples, one.samples);
      rows.push({
        figure: `Backfill over loopback (records/s): slices 4 vs 1, ${latencyMs} ms service latency`,
        footfall: rate(perSec(count, four), "rec/s"),
        baseline: `${rate(perSec(count, one), "rec/s")} one slice`,
        ratio: Number(r.toFixed(2)),
        goal: "> 1.0× one slice",
        met: r > 1,
        note: `${count} records (12:00–18:00); round trips dominate, as against a remote service; ${spread("slices 4", four)}, ${spread("one slice", one)}`,
      });
    } finally {
      await stopChild(child);
    }
  }
  if (sink === 0) throw new Error("nothing measured");
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await backfillBench();
  for (const row of rows) console.log(JSON.stringify(row));
}
