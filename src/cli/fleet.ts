import { dateOfEpochDay } from "../time/calendarDate.ts";
import { localDayOf } from "../time/timeZone.ts";
import { formatInZone } from "../time/formatLocal.ts";
import { EXIT_FAILED, EXIT_OK, UsageError, formatTable, integerFlag, parseFlags, parseFormat, timeFlag, timeZoneFlag, type CliIo, type Command } from "./common.ts";
import { withInterval } from "../demo/textFormats.ts";
import type { CalibrationRef } from "../kernels/calibration/Calibration.ts";
import { calibrationCell } from "./calibrationCell.ts";
import { calibrationFlag } from "./calibrationFlag.ts";
import { fleetDatabase, fleetRedis, fleetServerFlags, shopsFlag } from "./fleetSettings.ts";

const help = `usage: footfall fleet <init|backfill|tail|stop|status|results|retain|calibration> [options]

Many shops on many machines: jobs go through BullMQ on Redis, \`footfall worker\`s run them, and
results land in PostgreSQL (one transaction per shop-day with its checkpoint, fenced against
stale workers).

  fleet init                                   create the schema (idempotent; versioned)
  fleet backfill --shops 101,102 --since D --until D [--wait] [--attempts N]
                                               one job per shop and local day (job id
                                               day-SHOP-DATE: enqueueing twice adds nothing),
                                               tried up to --attempts times [5];
                                               --wait: progress on stderr, exit 0 when every
                                               job is done, 1 if any failed
  fleet tail --shops 101,102 [--since D] [--poll-ms N]
                                               exactly one live tail per shop somewhere in the
                                               fleet, resuming from its checkpoint after any
                                               failure; a new tail starts on day --since [today];
                                               it stores each day when it ends, and occupancy as
                                               the day goes on
  fleet stop --shops 101,102                   stop those live tails
  fleet status [--format table|ndjson]         jobs waiting/active/failed, workers alive, last
                                               checkpoint per shop, and a live tail's latest
                                               interval: people inside and people so far today,
                                               with the calibration they rest on (or prior)
  fleet results --shops 101 --since D --until D [--sessions] [--occupancy] [--quality]
                [--live] [--pool-days] [--format ndjson|table]
                                               the stored lines, in the shape
                                               \`footfall analyze --format ndjson\` prints them
                                               (table: one row per shop-day, people with the
                                               calibration they rest on);
                                               --live: a running tail's day in progress;
                                               --pool-days: people from each shop's days in the
                                               range together, as analyze --pool-days
  fleet retain [--retain-days N] [--schedule [--every-ms N]]
                                               delete per-device rows (sessions, visits) of
                                               days more than N days ago [30]; summaries,
                                               occupancy and quality stay. --schedule: the
                                               workers run it every --every-ms instead [daily]
                                               (a BullMQ job scheduler)
  fleet calibration set --calibration FILE [--shop ID ...]
                                               store the people calibrations of FILE
                                               (\`footfall calibrate --out\`), every shop in it
                                               or only each --shop, each replacing the shop's
                                               current one, all or none; a job uses the one
                                               current when it starts (a tail: each day)
  fleet calibration show [--shop ID ...]       the stored calibrations, one NDJSON line each
  fleet calibration clear --shop ID [--shop ID ...]
                                               remove them: the shops' next jobs use the prior

Days: a bare date is local midnight in --tz [Asia/Seoul]; jobs cover whole local days.
Servers: --redis URL (or FOOTFALL_REDIS_URL), --database URL (or FOOTFALL_DATABASE_URL, a
postgres:// URL). Passwords in URLs never appear in output.

Exit status: 0 done; 1 a job failed; 2 bad usage or bad settings (unreachable Redis or
PostgreSQL, a wrong URL, a schema of another version).

Examples:
  footfall fleet init
  footfall fleet backfill --shops 101,102 --since 2026-11-16 --until 2026-11-18 --wait
  footfall fleet results --shops 101 --since 2026-11-16 --until 2026-11-18 --format ndjson
  footfall fleet calibration set --calibration cal.json --shop 101`;

const flags = {
  shops: { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
  tz: { type: "string" },
  wait: { type: "boolean" },
  attempts: { type: "string" },
  "poll-ms": { type: "string" },
  format: { type: "string" },
  sessions: { type: "boolean" },
  occupancy: { type: "boolean" },
  live: { type: "boolean" },
  "pool-days": { type: "boolean" },
  quality: { type: "boolean" },
  "retain-days": { type: "string" },
  schedule: { type: "boolean" },
  "every-ms": { type: "string" },
  calibration: { type: "string" },
  shop: { type: "string", multiple: true },
  ...fleetServerFlags,
} as const;

type Values = ReturnType<typeof parseFlags<typeof flags>>["values"];

/**
 * `footfall fleet`, as `main` loads it.
 *
 * @example
 * const status = await command.run(["status"], io);
 */
export const command: Command = {
  summary: "many shops on many machines: enqueue, tail, status, results, calibrations (BullMQ + PostgreSQL)",
  help,
  check: (argv) => void fleetArgv(argv),
  run: runFleet,
};

const SUBCOMMANDS = ["init", "backfill", "tail", "stop", "status", "results", "retain", "calibration"] as const;
const CALIBRATION_ACTIONS = ["set", "show", "clear"] as const;

// The subcommand, its action and the flags, as both `check` and `run` read them.
function fleetArgv(argv: readonly string[]) {
  const [sub, ...rest] = argv;
  if (!(SUBCOMMANDS as readonly (string | undefined)[]).includes(sub)) {
    throw new UsageError(`unknown fleet command ${JSON.stringify(sub ?? "")}: init, backfill, tail, stop, status, results, retain or calibration`);
  }
  const { values, positionals } = parseFlags(rest, flags, true);
  // `fleet calibration <set|show|clear>`: the one subcommand with a word of its own.
  const action = sub === "calibration" ? positionals.shift() : undefined;
  if (sub === "calibration" && !(CALIBRATION_ACTIONS as readonly (string | undefined)[]).includes(action)) {
    throw new UsageError(`unknown fleet calibration command ${JSON.stringify(action ?? "")}: set, show or clear`);
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  return { sub: sub as (typeof SUBCOMMANDS)[number], action: action as (typeof CALIBRATION_ACTIONS)[number] | undefined, values };
}

async function runFleet(argv: readonly string[], io: CliIo): Promise<number> {
  const { sub, action, values } = fleetArgv(argv);
  const timeZone = timeZoneFlag(values.tz);
  switch (sub) {
    case "init":
      return init(values, io);
    case "backfill":
      return backfill(values, io, timeZone);
    case "tail":
      return tail(values, io, timeZone);
    case "stop":
      return stop(values, io);
    case "status":
      return status(values, io);
    case "results":
      return results(values, io, timeZone);
    case "retain":
      return retain(values, io);
    case "calibration":
      return calibration(action!, values, io); // fleetArgv gives `calibration` its action
  }
}

async function retain(values: Values, io: CliIo): Promise<number> {
  const retainDays = integerFlag("--retain-days", values["retain-days"], 1, 3650) ?? 30;
  const everyMs = integerFlag("--every-ms", values["every-ms"], 1000);
  if (values.schedule === true) {
    const connection = await fleetRedis(values, io, "fleet");
    const { scheduleRetention } = await import("../fleet/retainFleet.ts");
    await scheduleRetention(connection, { retainDays, ...(everyMs === undefined ? {} : { everyMs }) });
    io.stderr.write(`footfall fleet retain: workers delete per-device rows older than ${retainDays} days every ${Math.round((everyMs ?? 86_400_000) / 60_000)} min\n`);
    return EXIT_OK;
  }
  if (everyMs !== undefined) throw new UsageError("--every-ms goes with --schedule");
  const pool = await fleetDatabase(values, io);
  try {
    const { retainFleet } = await import("../fleet/retainFleet.ts");
    const r = await retainFleet(pool, { retainDays });
    io.stderr.write(`footfall fleet retain: deleted ${r.sessions} session and ${r.visits} visit rows of days before ${r.before} (kept ${retainDays} days)\n`);
    return EXIT_OK;
  } finally {
    await pool.end();
  }
}

async function init(values: Values, io: CliIo): Promise<number> {
  const { initFleetSchema, FLEET_SCHEMA_VERSION } = await import("../fleet/fleetSchema.ts");
  const pool = await fleetDatabase(values, io, false);
  try {
    const outcome = await initFleetSchema(pool).catch(async (error: unknown) => {
      const { isFleetSettingsError } = await import("../errors/FleetSettingsError.ts");
      throw isFleetSettingsError(error) ? new UsageError(error.message) : error;
    });
    const done = { created: `version ${FLEET_SCHEMA_VERSION} created`, current: `version ${FLEET_SCHEMA_VERSION} already current`, upgraded: `upgraded to version ${FLEET_SCHEMA_VERSION}` };
    io.stderr.write(`footfall fleet init: schema ${done[outcome]}\n`);
    return EXIT_OK;
  } finally {
    await pool.end();
  }
}

function range(values: Values, timeZone: string): { sinceMs: number; untilMs: number } {
  const sinceMs = timeFlag("--since", values.since, timeZone);
  const untilMs = timeFlag("--until", values.until, timeZone);
  if (sinceMs === undefined || untilMs === undefined) throw new UsageError("--since and --until are required");
  if (untilMs <= sinceMs) throw new UsageError("--until must be after --since");
  return { sinceMs, untilMs };
}

async function backfill(values: Values, io: CliIo, timeZone: string): Promise<number> {
  const shops = shopsFlag(values.shops);
  const { sinceMs, untilMs } = range(values, timeZone);
  const attempts = integerFlag("--attempts", values.attempts, 1, 1000);
  const connection = await fleetRedis(values, io, "fleet");
  const [{ addJobs, backfillJobs }, { waitForJobs }] = await Promise.all([import("../fleet/enqueueBackfill.ts"), import("../fleet/waitForJobs.ts")]);
  const jobs = backfillJobs({ shops, sinceMs, untilMs, timeZone, ...(attempts === undefined ? {} : { attempts }) });
  await addJobs(connection, jobs);
  const ids = jobs.map((j) => j.opts.jobId);
  io.stderr.write(`footfall fleet backfill: ${ids.length} shop-day job(s) enqueued (${ids[0]} … ${ids.at(-1)})\n`);
  if (values.wait !== true) return EXIT_OK;
  try {
    const final = await waitForJobs(connection, ids, {
      signal: io.signal,
      // A Redis restarted without persistence forgets queued jobs: add them again.
      requeue: async (lost) => {
        io.stderr.write(`footfall fleet backfill: Redis lost ${lost.length} job(s); enqueueing them again\n`);
        await addJobs(connection, jobs.filter((j) => lost.includes(j.opts.jobId)));
      },
      onProgress: (p) => io.stderr.write(`footfall fleet backfill: ${p.done}/${p.total} done, ${p.failed} failed\n`),
    });
    return final.failed > 0 ? EXIT_FAILED : EXIT_OK;
  } catch (error) {
    if (io.signal.aborted) {
      io.stderr.write("footfall fleet backfill: interrupted (the jobs stay enqueued)\n");
      return EXIT_FAILED;
    }
    throw error;
  }
}

async function tail(values: Values, io: CliIo, timeZone: string): Promise<number> {
  const shops = shopsFlag(values.shops);
  const pollIntervalMs = integerFlag("--poll-ms", values["poll-ms"], 1) ?? 5_000;
  const startMs = timeFlag("--since", values.since, timeZone) ?? Date.now();
  const startDay = dateOfEpochDay(localDayOf(startMs, timeZone));
  const connection = await fleetRedis(values, io, "fleet");
  const pool = await fleetDatabase(values, io);
  try {
    const { enqueueTails } = await import("../fleet/enqueueTails.ts");
    const ids = await enqueueTails(connection, pool, { shops, startDay, timeZone, pollIntervalMs });
    io.stderr.write(`footfall fleet tail: ${ids.join(", ")} running (new tails start on ${startDay})\n`);
    return EXIT_OK;
  } finally {
    await pool.end();
  }
}

async function stop(values: Values, io: CliIo): Promise<number> {
  const shops = shopsFlag(values.shops);
  const connection = await fleetRedis(values, io, "fleet");
  const pool = await fleetDatabase(values, io);
  try {
    const { stopTails } = await import("../fleet/enqueueTails.ts");
    await stopTails(connection, pool, shops);
    io.stderr.write(`footfall fleet stop: tails of ${shops.join(", ")} stopping\n`);
    return EXIT_OK;
  } finally {
    await pool.end();
  }
}

async function status(values: Values, io: CliIo): Promise<number> {
  const format = parseFormat(values.format, ["table", "ndjson"] as const, "table");
  const connection = await fleetRedis(values, io, "fleet");
  const pool = await fleetDatabase(values, io);
  try {
    const { fleetStatus } = await import("../fleet/fleetStatus.ts");
    const s = await fleetStatus(connection, pool);
    if (format === "ndjson") {
      io.stdout.write(`${JSON.stringify({ type: "fleet", jobs: s.jobs, workers: s.workers })}\n`);
      for (const shop of s.shops) io.stdout.write(`${JSON.stringify({ type: "shop", ...shop })}\n`);
      return EXIT_OK;
    }
    const j = s.jobs;
    io.stdout.write(`jobs: ${j.waiting} waiting, ${j.active} active, ${j.delayed} delayed, ${j.completed} completed, ${j.failed} failed\n`);
    io.stdout.write(`workers alive: ${s.workers.length}${s.workers.length > 0 ? ` (${s.workers.join(", ")})` : ""}\n\n`);
    if (s.shops.length === 0) io.stdout.write("no shops yet\n");
    else {
      io.stdout.write(
        formatTable(
          s.shops.map((x) => ({
            shop: x.shopId,
            days: x.days,
            "last day": x.lastDay,
            "committed at": x.lastCommittedAt,
            tail: x.tail === null ? null : x.tail.wanted ? `live, at ${x.tail.nextDay}` : `stopped at ${x.tail.nextDay}`,
            "inside [90 %]": x.live === null ? null : `${between(x.live.inside, x.live.insideLow, x.live.insideHigh)} until ${formatInZone(x.live.end, x.tail?.timeZone ?? "UTC", "clock")}`,
            "people today": x.live === null ? null : between(x.live.visitors, x.live.visitorsLow, x.live.visitorsHigh),
            calibration: x.live === null ? null : calibrationCell(x.live.calibration),
          })),
        ),
      );
    }
    return EXIT_OK;
  } finally {
    await pool.end();
  }
}

async function results(values: Values, io: CliIo, timeZone: string): Promise<number> {
  const format = parseFormat(values.format, ["ndjson", "table"] as const, "ndjson");
  const shops = shopsFlag(values.shops);
  const { sinceMs, untilMs } = range(values, timeZone);
  const sinceDay = dateOfEpochDay(localDayOf(sinceMs, timeZone));
  const untilDay = dateOfEpochDay(localDayOf(untilMs - 1, timeZone) + 1);
  const pool = await fleetDatabase(values, io);
  try {
    const { readFleetResults } = await import("../fleet/readFleetResults.ts");
    const lines = await readFleetResults(pool, {
      shops,
      sinceDay,
      untilDay,
      sessions: values.sessions === true,
      occupancy: values.occupancy === true,
      quality: values.quality === true,
      live: values.live === true,
      poolDays: values["pool-days"] === true,
    });
    if (format === "ndjson") {
      let buffer = "";
      for (const line of lines) buffer += `${JSON.stringify(line)}\n`;
      io.stdout.write(buffer);
    } else {
      const summaries = lines.filter((l) => l.type === "summary");
      io.stdout.write(
        summaries.length === 0
          ? "no results\n"
          : formatTable(
              summaries.map((d) => ({
                shop: d.shopId,
                date: d.date,
                visitors: d.visitors,
                // A line without the field says nothing of it: blank, not "prior".
                calibration: d.calibration === undefined ? null : calibrationCell(d.calibration as CalibrationRef | null),
                visits: d.visits,
                "passers-by": d.passersBy,
                "capture %": typeof d.captureRate === "number" ? Math.round(d.captureRate * 1000) / 10 : null,
                new: d.newVisitors,
                repeat: d.repeatVisitors,
              })),
            ),
      );
    }
    return EXIT_OK;
  } finally {
    await pool.end();
  }
}

async function calibration(action: (typeof CALIBRATION_ACTIONS)[number], values: Values, io: CliIo): Promise<number> {
  if (values.shops !== undefined) throw new UsageError("fleet calibration takes --shop ID (once per shop), not --shops");
  const shops = shopFlags(values.shop);
  switch (action) {
    case "set":
      return setCalibration(values, io, shops);
    case "show": {
      if (values.calibration !== undefined) throw new UsageError("--calibration goes with `fleet calibration set`");
      parseFormat(values.format, ["ndjson"] as const, "ndjson");
      const pool = await fleetDatabase(values, io);
      try {
        const { fleetCalibrations } = await import("../fleet/fleetCalibrations.ts");
        const stored = await fleetCalibrations(pool, shops);
        let buffer = "";
        for (const s of stored) buffer += `${JSON.stringify({ type: "calibration", ...s })}\n`;
        io.stdout.write(buffer);
        const missing = (shops ?? []).filter((id) => !stored.some((s) => s.shopId === id));
        if (missing.length > 0) io.stderr.write(`footfall fleet calibration: no calibration stored for shop ${missing.join(", ")}\n`);
        return EXIT_OK;
      } finally {
        await pool.end();
      }
    }
    case "clear": {
      if (shops === undefined) throw new UsageError("fleet calibration clear needs --shop ID (once per shop)");
      if (values.calibration !== undefined) throw new UsageError("--calibration goes with `fleet calibration set`");
      const pool = await fleetDatabase(values, io);
      try {
        const { clearFleetCalibrations } = await import("../fleet/fleetCalibrations.ts");
        const removed = await clearFleetCalibrations(pool, shops);
        for (const id of shops) {
          const r = removed.find((x) => x.shopId === id);
          io.stderr.write(`footfall fleet calibration: shop ${id}: ${r === undefined ? "had no calibration" : `${r.id} removed; its next jobs use the prior`}\n`);
        }
        return EXIT_OK;
      } finally {
        await pool.end();
      }
    }
  }
}

/** `fleet calibration set`: the file is read and checked whole before the database is touched. */
async function setCalibration(values: Values, io: CliIo, shops: number[] | undefined): Promise<number> {
  const file = values.calibration;
  if (file === undefined || file === "") throw new UsageError("fleet calibration set needs --calibration FILE");
  // The one reading of a calibration file (as `analyze --calibration`): a UsageError naming it.
  const byShop = new Map((await calibrationFlag(file)).shops.map((c) => [c.shopId, c]));
  if (byShop.size === 0) throw new UsageError(`--calibration ${file}: holds no calibration`);
  const absent = (shops ?? []).filter((id) => !byShop.has(id));
  if (absent.length > 0) {
    throw new UsageError(`--shop ${absent.join(", ")}: not in ${file} (it calibrates shop ${[...byShop.keys()].sort((a, b) => a - b).join(", ")})`);
  }
  const chosen = shops === undefined ? [...byShop.values()] : shops.map((id) => byShop.get(id)!);
  const pool = await fleetDatabase(values, io);
  try {
    const { setFleetCalibrations } = await import("../fleet/fleetCalibrations.ts");
    const set = await setFleetCalibrations(pool, chosen);
    for (const r of set) {
      const c = byShop.get(r.shopId)!;
      const replaced = r.previous === null ? "" : r.previous === r.id ? " (again)" : ` (replacing ${r.previous})`;
      // Stored all the same: the lines estimated with it say `trusted: false` and why.
      const trust = c.trusted ? "" : `; not trusted: ${c.warnings.join("; ")}`;
      io.stderr.write(`footfall fleet calibration: shop ${r.shopId}: ${r.id} set${replaced}; its next jobs use it${trust}\n`);
    }
    return EXIT_OK;
  } finally {
    await pool.end();
  }
}

/** `--shop ID` (repeatable) → SHOP IDs, or undefined when none is given. */
function shopFlags(values: readonly string[] | undefined): number[] | undefined {
  if (values === undefined || values.length === 0) return undefined;
  for (const v of values) {
    if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(Number(v))) throw new UsageError(`--shop must be a SHOP ID, got ${JSON.stringify(v)}`);
  }
  return [...new Set(values.map(Number))];
}

/** A stored estimate with its 90 % interval, to a tenth: "12.3 [9.1–15.8]"; "unknown" when there is none. */
function between(x: number | null, low: number | null, high: number | null): string {
  return x === null ? "unknown" : withInterval(x, low ?? Number.NaN, high ?? Number.NaN, (v) => String(Math.round(v * 10) / 10));
}

