import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import pg from "pg";
import { lastValueFrom, toArray } from "rxjs";
import { summaryRecord } from "../../src/analysis/summaryRecord.ts";
import { type AnalysisRecord } from "../../src/analysis/AnalysisRecord.ts";
import { analyze } from "../../src/analysis/analyze.ts";
import { main } from "../../src/cli/main.ts";
import { createClient } from "../../src/client/createClient.ts";
import { MemoryVisitHistory } from "../../src/kernels/visits/MemoryVisitHistory.ts";
import { localDays, type LocalDay } from "../../src/fleet/localDays.ts";
import type { RunningSimulator } from "../../src/sim/service/startSimulator.ts";
import { signals } from "../../src/source/signals.ts";
import { FAKE_IO_MAC_KEY, fakeIo } from "../cli/fakeIo.ts";

const MAIN = join(import.meta.dirname, "..", "..", "src", "cli", "main.ts");

/**
 * Parses NDJSON text into objects.
 *
 * @example
 * lines('{"a":1}\n'); // [{ a: 1 }]
 */
export function lines(text: string): AnalysisRecord[] {
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as AnalysisRecord);
}

/**
 * A `footfall worker` child process; `err` collects its stderr.
 *
 * @example
 * const w = startWorker(env, ["--concurrency", "1"]);
 * await w.waitFor(/ready/);
 */
export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  err: string;
  /** Resolves when stderr matches `pattern` (or rejects when the process exits first). */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (or signal name). */
  readonly exited: Promise<number | string>;
}

/**
 * Starts `footfall worker` with `args`; `nodeArgs` go to node itself (e.g. a bench's `--cpu-prof`).
 * @see WorkerProcess
 */
export function startWorker(env: Record<string, string>, args: readonly string[] = [], nodeArgs: readonly string[] = []): WorkerProcess {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", MAIN, "worker", ...args], {
    // fakeIo's key: what the worker stores must equal what `cli(…analyze…)` prints.
    env: { ...process.env, FOOTFALL_MAC_KEY: FAKE_IO_MAC_KEY, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void; reject: (e: Error) => void }[] = [];
  const w: WorkerProcess = {
    child,
    pid: child.pid!,
    err: "",
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const m = w.err.match(pattern);
        if (m !== null) resolve(m);
        else if (child.exitCode !== null || child.signalCode !== null) reject(new Error(`worker exited before ${pattern}: ${w.err}`));
        else waiters.push({ pattern, resolve, reject });
      }),
    exited: new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? -1))),
  };
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => {
    w.err += chunk;
    for (let i = waiters.length - 1; i >= 0; i--) {
      const m = w.err.match(waiters[i]!.pattern);
      if (m !== null) {
        waiters[i]!.resolve(m);
        waiters.splice(i, 1);
      }
    }
  });
  child.once("exit", () => {
    for (const x of waiters.splice(0)) x.reject(new Error(`worker exited before ${x.pattern}: ${w.err}`));
  });
  return w;
}

/**
 * Stops a worker by its pid (SIGTERM, or SIGKILL after 10 s) and waits for it.
 *
 * @example
 * await stopWorker(w);
 */
export async function stopWorker(w: WorkerProcess): Promise<void> {
  if (w.child.exitCode === null && w.child.signalCode === null) {
    process.kill(w.pid, "SIGCONT");
    process.kill(w.pid, "SIGTERM");
    const t = setTimeout(() => w.child.exitCode === null && w.child.signalCode === null && process.kill(w.pid, "SIGKILL"), 10_000);
    await w.exited;
    clearTimeout(t);
  }
}

/**
 * Runs `footfall <argv>` in this process; resolves to its status and output.
 *
 * @example
 * const { status, out } = await cli(env, ["fleet", "init"]);
 */
export async function cli(env: Record<string, string>, argv: readonly string[]): Promise<{ status: number; out: string; err: string }> {
  const { io, text } = fakeIo(env);
  const status = await main(argv, io);
  return { status, out: text.out, err: text.err };
}

/**
 * What the single process computes for each shop-day: `footfall analyze --shop S --since D
 * --until D+1 --format ndjson` (sessions and summary per day), with new vs repeat visitors from
 * the library `analyze` run day by day in order with one visit history (the single-process answer
 * across days).
 *
 * @example
 * const expected = await singleProcess(sim, [101], "2026-11-16", "2026-11-18", "Asia/Seoul");
 */
export async function singleProcess(
  sim: RunningSimulator,
  shops: readonly number[],
  since: string,
  until: string,
  timeZone: string,
): Promise<{ days: LocalDay[]; sessions: Map<string, AnalysisRecord[]>; summaries: Map<string, AnalysisRecord>; occupancy: Map<string, AnalysisRecord[]> }> {
  const env = { FOOTFALL_SIGNAL_URL: sim.signalUrl, FOOTFALL_EMAIL: sim.email, FOOTFALL_TOKEN: sim.token };
  const client = createClient({ baseUrl: sim.baseUrl, signalUrl: sim.signalUrl, email: sim.email, token: sim.token });
  const zoned: { day: string; next: string }[] = [];
  for (let day = since; day < until; day = nextDay(day)) zoned.push({ day, next: nextDay(day) });
  const sessions = new Map<string, AnalysisRecord[]>();
  const summaries = new Map<string, AnalysisRecord>();
  const occupancy = new Map<string, AnalysisRecord[]>();
  const out: LocalDay[] = [];
  for (const shopId of shops) {
    const history = new MemoryVisitHistory();
    for (const { day, next } of zoned) {
      const r = await cli(env, ["analyze", "--shop", String(shopId), "--since", day, "--until", next, "--tz", timeZone, "--format", "ndjson"]);
      if (r.status !== 0) throw new Error(`analyze failed: ${r.err}`);
      const rows = lines(r.out);
      const d = localDays(Date.parse(`${day}T12:00:00Z`), Date.parse(`${day}T12:00:01Z`), timeZone)[0]!;
      // The day's lines (a job stores only those: resultWithin), should the range hold pieces of another day.
      const ofDay = (x: AnalysisRecord): boolean => Number(x.start) >= d.sinceMs && Number(x.start) < d.untilMs;
      sessions.set(`${shopId} ${day}`, rows.filter((x) => x.type === "session" && ofDay(x)));
      occupancy.set(`${shopId} ${day}`, rows.filter((x) => x.type === "occupancy" && ofDay(x)));
      const summary = rows.find((x) => x.type === "summary" && x.date === day);
      // New vs repeat across days: the library with one history, days in order.
      const records = await lastValueFrom(signals(client, { shopId, since: d.sinceMs, until: d.untilMs }).pipe(toArray()));
      const result = await analyze(records, { timeZone, history });
      const withHistory = result.days.find((x) => x.label === day);
      if (summary !== undefined && withHistory !== undefined) {
        const h = summaryRecord(withHistory);
        summaries.set(`${shopId} ${day}`, { ...summary, newVisitors: h.newVisitors, repeatVisitors: h.repeatVisitors });
      }
      if (shopId === shops[0]) out.push(d);
    }
  }
  return { days: out, sessions, summaries, occupancy };
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * Checks what the fleet stored against the single-process results: every shop-day present once,
 * summaries and sessions equal field by field, no duplicate session ids, and returns the
 * checkpoint rows (for the proofs each fault test adds).
 *
 * @example
 * const rows = await expectStoredEqual(env, expected, [101], "2026-11-16", "2026-11-17");
 */
export async function expectStoredEqual(
  env: Record<string, string>,
  expected: Awaited<ReturnType<typeof singleProcess>>,
  shops: readonly number[],
  since: string,
  until: string,
): Promise<{ shop_id: string; day: string; worker: string; epoch: string; job_id: string }[]> {
  const { expect } = await import("vitest");
  const stored = await cli(env, ["fleet", "results", "--shops", shops.join(","), "--since", since, "--until", until, "--sessions", "--format", "ndjson"]);
  expect(stored.status).toBe(0);
  const rows = lines(stored.out);
  const keys: string[] = [];
  for (const shopId of shops) for (let d = since; d < until; d = nextDay(d)) keys.push(`${shopId} ${d}`);
  const summaries = rows.filter((r) => r.type === "summary");
  expect(summaries.map((s) => `${s.shopId} ${s.date}`)).toEqual(keys);
  for (const s of summaries) expect(s).toEqual(expected.summaries.get(`${s.shopId} ${s.date}`));
  expect(rows.filter((r) => r.type === "session")).toEqual(keys.flatMap((k) => expected.sessions.get(k) ?? []));
  const db = new pg.Client({ connectionString: env.FOOTFALL_DATABASE_URL });
  await db.connect();
  try {
    const dup = await db.query("SELECT session_id FROM footfall_sessions GROUP BY session_id HAVING count(*) > 1");
    expect(dup.rows).toEqual([]);
    const days = await db.query<{ shop_id: string; day: string; worker: string; epoch: string; job_id: string }>(
      "SELECT shop_id, day, worker, epoch, job_id FROM footfall_shop_days ORDER BY shop_id, day",
    );
    expect(days.rows.map((r) => `${r.shop_id} ${r.day}`)).toEqual(keys);
    return days.rows;
  } finally {
    await db.end();
  }
}

/**
 * The `fleet status` counts (NDJSON first line).
 *
 * @example
 * expect((await fleetJobs(env)).failed).toBe(0);
 */
export async function fleetJobs(env: Record<string, string>): Promise<{ failed: number; completed: number; active: number; waiting: number }> {
  const status = await cli(env, ["fleet", "status", "--format", "ndjson"]);
  if (status.status !== 0) throw new Error(status.err);
  return lines(status.out)[0]!.jobs as { failed: number; completed: number; active: number; waiting: number };
}
