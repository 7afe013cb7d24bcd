import { csvCell } from "../text/csvCell.ts";
import cliProgress from "cli-progress";
import type { RawSignal } from "../contract/rawSignal.ts";
import { SignalDecoder, type InvalidRecord } from "../codec/decodeSignal.ts";
import type { Signal } from "../codec/Signal.ts";
import { rtsToMillis } from "../codec/rts.ts";
import { fileCursorStore } from "../source/fileCursorStore.ts";
import { signalPages } from "../source/signalPages.ts";
import type { SignalProgress } from "../source/SignalPage.ts";
import type { SignalsOptions } from "../source/signalsOptions.ts";
import {
  EXIT_FAILED,
  EXIT_OK,
  OutputClosedError,
  UsageError,
  connectionFlags,
  integerFlag,
  oneLine,
  parseFlags,
  parseFormat,
  rtsUnitFlag,
  timeFlag,
  timeZoneFlag,
  type CliIo,
  type Command,
} from "./common.ts";
import { defaultClientDeps, serviceClient, type ClientDeps } from "./serviceClient.ts";

const flags = {
  shop: { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
  limit: { type: "string" },
  slices: { type: "string" },
  checkpoint: { type: "string" },
  format: { type: "string" },
  "poll-ms": { type: "string" },
  "settle-ms": { type: "string" },
  "rts-unit": { type: "string" },
  tz: { type: "string" },
  ...connectionFlags,
} as const;

const help = `usage: footfall signals backfill --shop ID --since ISO [--until ISO] [--limit N]
                                [--slices K] [--checkpoint FILE] [--format ndjson|csv]
       footfall signals tail --shop ID [--since ISO] [--poll-ms N] [--settle-ms N]
                                [--limit N] [--checkpoint FILE] [--format ndjson|csv]
       (both also take [--tz ZONE] [--rts-unit ms|s|us|ns])

Reads a shop's Wi-Fi signal records from the service, every record exactly once and in
order (ascending RTS), and writes them to stdout.

  backfill  records at or after --since and before --until; ends at --until, or once it
            has caught up with the newest data when --until is not given
  tail      from --since (default: where --checkpoint stopped, else now), then keeps polling
            for new records until Ctrl-C

Flags:
  --shop ID          SHOP ID (the service's shop id; see \`footfall shop\`)
  --since ISO        first time wanted, inclusive: 2026-11-20T09:00:00+09:00; a bare date
                     (2026-11-20) is local midnight in --tz, as in \`footfall analyze\`; a
                     time without offset is the machine's local time
  --until ISO        end, exclusive (a bare date: local midnight in --tz)
  --tz ZONE          the shop's time zone, for bare dates [Asia/Seoul]
  --limit N          page size, records per request, 1-200 (default 200)
  --slices K         backfill only, with --until: read K time ranges concurrently; output
                     is identical to one slice (default 1)
  --checkpoint FILE  save the position after every page (atomic write); run the same
                     command again to resume with nothing lost or repeated
  --format F         ndjson (default): each line is the service's record, unchanged, plus
                     decoded fields (shopId, rts, time in epoch ms, device, sensor,
                     randomized, vendor), ready for \`footfall analyze --input\`;
                     csv: the same fields as columns
  --poll-ms N        tail: wait between polls once caught up (default 5000)
  --settle-ms N      tail: stay N ms behind the newest data, for records that reach the
                     service late (default 0)
  --rts-unit U       how the service turns a datetime into RTS, which the interface does
                     not publish: epoch ms (default), s, us or ns
  --signal-url URL   {signal_url} of the service  (or FOOTFALL_SIGNAL_URL)
  --email EMAIL      e-mail of the account        (or FOOTFALL_EMAIL)
  --token TOKEN      authentication token         (or FOOTFALL_TOKEN; prefer the variable)
  -h, --help         this text

Privacy: what this writes is a copy of the service's data: its records unchanged, device
MAC addresses included (personal data; keep it as you keep the service's data). Unlike
\`footfall analyze\` and \`footfall demo\`, which write keyed pseudonyms, nothing is hidden here.

A progress bar is drawn on stderr when stderr is a terminal. Ctrl-C stops cleanly: the
checkpoint holds everything written. Records the service sends with an unusable row_key
or a field missing or of another type, or that do not decode, are reported on stderr (records that do not decode are still
written, with an "invalid" field naming the reason).

Exit status: 0 done (tail: stopped with Ctrl-C); 1 the service failed, a record was
rejected, or a backfill was interrupted; 2 bad usage or a missing setting.

Example:
  footfall signals backfill --shop 101 --since 2026-11-15T00:00:00+09:00 \\
    --until 2026-11-16T00:00:00+09:00 --checkpoint day.json > day.ndjson`;

/**
 * Builds the `footfall signals` command over the given dependencies.
 *
 * @example
 * const status = await signalsCommand().run(["backfill", "--shop", "101", "--since", "2026-11-20"], io);
 */
export function signalsCommand(deps: ClientDeps = defaultClientDeps): Command {
  return {
    summary: "backfill or tail a shop's signal records (NDJSON or CSV on stdout)",
    help,
    check: (argv) => void signalsArgv(argv),
    run: (argv, io) => runSignals(argv, io, deps),
  };
}

/**
 * `footfall signals`, as `main` loads it.
 *
 * @example
 * const status = await command.run(["tail", "--shop", "101"], io);
 */
export const command: Command = signalsCommand();

// The flags and the subcommand, as both `check` and `run` read them.
function signalsArgv(argv: readonly string[]) {
  const { values, positionals } = parseFlags(argv, flags, true);
  const [mode, ...extra] = positionals;
  if (mode !== "backfill" && mode !== "tail") throw new UsageError("expected a subcommand: backfill or tail");
  if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
  return { values, mode } as const;
}

async function runSignals(argv: readonly string[], io: CliIo, deps: ClientDeps): Promise<number> {
  const { values, mode } = signalsArgv(argv);
  const shopId = integerFlag("--shop", values.shop, 0, Number.MAX_SAFE_INTEGER);
  if (shopId === undefined) throw new UsageError("--shop is required");
  // A bare date is local midnight in the shop's zone, as for analyze and fleet: the day a
  // backfill reads is the day `analyze --input` then reports, with the same --tz.
  const timeZone = timeZoneFlag(values.tz);
  const since = timeFlag("--since", values.since, timeZone);
  if (since === undefined && mode === "backfill") throw new UsageError("--since is required for a backfill");
  const until = timeFlag("--until", values.until, timeZone);
  if (since !== undefined && until !== undefined && until <= since) throw new UsageError("--until must be after --since");
  const limit = integerFlag("--limit", values.limit, 1, 200);
  const slices = integerFlag("--slices", values.slices, 1, 64);
  if (slices !== undefined && slices > 1 && (mode !== "backfill" || until === undefined)) {
    throw new UsageError("--slices needs a backfill with --until");
  }
  const pollIntervalMs = integerFlag("--poll-ms", values["poll-ms"], 0, 86_400_000);
  const settleMs = integerFlag("--settle-ms", values["settle-ms"], 0, 86_400_000);
  if (mode === "backfill" && (pollIntervalMs !== undefined || settleMs !== undefined)) {
    throw new UsageError("--poll-ms and --settle-ms are for tail");
  }
  const format = parseFormat(values.format, ["ndjson", "csv"] as const, "ndjson");
  const rtsCodec = rtsUnitFlag(values["rts-unit"]);
  const checkpointPath = values.checkpoint;
  if (checkpointPath === "") throw new UsageError("--checkpoint needs a file name");

  // Stops on Ctrl-C, and when stdout goes away (e.g. `| head`: main aborts io.signal then).
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(io.signal.reason);
  io.signal.addEventListener("abort", onAbort, { once: true });
  if (io.signal.aborted) onAbort();

  const client = serviceClient(values, io, deps, { name: "signals", uses: "signals", signal: controller.signal });

  const bar = io.stderr.isTTY === true && mode === "backfill" ? progressBar(io, until !== undefined) : undefined;
  let sourceRejected = 0;
  let decodeRejected = 0;
  let lastInvalid: InvalidRecord | undefined;
  const decoder = new SignalDecoder({ shopId, rtsCodec, onInvalid: (bad) => (lastInvalid = bad) });
  const options: SignalsOptions = {
    shopId,
    mode,
    rtsCodec,
    signal: controller.signal,
    ...(since === undefined ? {} : { since }),
    ...(until === undefined ? {} : { until }),
    ...(limit === undefined ? {} : { limit }),
    ...(slices === undefined ? {} : { slices }),
    ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
    ...(settleMs === undefined ? {} : { settleMs }),
    ...(checkpointPath === undefined ? {} : { checkpoint: fileCursorStore(checkpointPath) }),
    onInvalid: (bad) => {
      sourceRejected++;
      if (sourceRejected <= 10) io.stderr.write(`footfall signals: rejected a record: ${oneLine(bad.message)}\n`);
    },
    ...(bar === undefined ? {} : { onProgress: (p: SignalProgress) => bar.update(p) }),
  };

  let lastCursorTime: number | undefined;
  try {
    if (format === "csv") io.stdout.write(`${CSV_COLUMNS.join(",")}\n`);
    for await (const page of signalPages(client, options)) {
      let chunk = "";
      for (const raw of page.records) {
        lastInvalid = undefined;
        const signal = decoder.decode(raw);
        if (signal === undefined) decodeRejected++;
        chunk += format === "ndjson" ? ndjsonLine(raw, signal, lastInvalid) : csvLine(raw, signal, lastInvalid);
      }
      lastCursorTime = rtsToMillis(page.cursor.rts, rtsCodec);
      if (chunk !== "" && !io.stdout.write(chunk)) await drained(io.stdout, controller.signal);
    }
    bar?.stop();
    return summarize(io, sourceRejected, decodeRejected);
  } catch (error) {
    bar?.stop();
    if (io.signal.reason instanceof OutputClosedError) return EXIT_FAILED;
    if (io.signal.aborted) {
      const where = lastCursorTime === undefined ? "" : ` after records up to ${new Date(lastCursorTime).toISOString()}`;
      const resume = checkpointPath === undefined ? "" : `; run the same command to resume from ${checkpointPath}`;
      io.stderr.write(`footfall signals: interrupted${where}${mode === "backfill" ? resume : ""}\n`);
      const status = summarize(io, sourceRejected, decodeRejected);
      return mode === "tail" ? status : EXIT_FAILED;
    }
    io.stderr.write(`footfall signals: ${oneLine(error instanceof Error ? error.message : String(error))}\n`);
    return EXIT_FAILED;
  } finally {
    io.signal.removeEventListener("abort", onAbort);
  }
}

/** Fields added to each record, in CSV column order after the service's six. */
const CSV_COLUMNS = [
  "row_key",
  "device_id",
  "rssi",
  "square_mac",
  "ts",
  "local",
  "shopId",
  "rts",
  "time",
  "device",
  "sensor",
  "randomized",
  "vendor",
  "invalid",
] as const;

function ndjsonLine(raw: RawSignal, s: Signal | undefined, invalid: InvalidRecord | undefined): string {
  if (s === undefined) return `${JSON.stringify({ ...raw, invalid: invalid?.reason ?? "invalid" })}\n`;
  // The service's fields first and unchanged; the decoded ones after them.
  return `${JSON.stringify({
    ...raw,
    shopId: s.shopId,
    rts: s.rts,
    time: s.time,
    device: s.device,
    sensor: s.sensor,
    randomized: s.randomized,
    vendor: s.vendor ?? null,
  })}\n`;
}

function csvLine(raw: RawSignal, s: Signal | undefined, invalid: InvalidRecord | undefined): string {
  const cells: unknown[] = [raw.row_key, raw.device_id, raw.rssi, raw.square_mac, raw.ts, raw.local];
  if (s === undefined) cells.push("", "", "", "", "", "", "", invalid?.reason ?? "invalid");
  else cells.push(s.shopId, s.rts, s.time, s.device, s.sensor, s.randomized, s.vendor ?? "", "");
  return `${cells.map(csvCell).join(",")}\n`;
}

function summarize(io: CliIo, sourceRejected: number, decodeRejected: number): number {
  if (sourceRejected === 0 && decodeRejected === 0) return EXIT_OK;
  const parts: string[] = [];
  if (sourceRejected > 0) parts.push(`${sourceRejected} record(s) with an unusable row_key or a field missing or mistyped were left out`);
  if (decodeRejected > 0) parts.push(`${decodeRejected} record(s) did not decode (written with an "invalid" field)`);
  io.stderr.write(`footfall signals: ${parts.join("; ")}\n`);
  return EXIT_FAILED;
}

interface Bar {
  update(progress: SignalProgress): void;
  stop(): void;
}

function progressBar(io: CliIo, bounded: boolean): Bar {
  const bar = new cliProgress.SingleBar(
    {
      stream: io.stderr,
      format: bounded
        ? "signals {bar} {percentage}% | {records} records | {cursor}"
        : "signals | {records} records | {cursor}",
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(1000, 0, { records: 0, cursor: "" });
  return {
    update(p) {
      bar.update(Math.round((p.fraction ?? 0) * 1000), { records: p.records, cursor: new Date(p.cursorTime).toISOString() });
    },
    stop: () => bar.stop(),
  };
}

function drained(stream: NodeJS.WritableStream, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      stream.off("drain", done);
      signal.removeEventListener("abort", aborted);
      resolve();
    };
    const aborted = (): void => {
      stream.off("drain", done);
      reject(signal.reason);
    };
    stream.on("drain", done);
    signal.addEventListener("abort", aborted, { once: true });
  });
}
