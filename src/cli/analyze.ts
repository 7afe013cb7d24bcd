import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { Analyzer, withAlignedClocks, type AnalyzeOptions, type AnalyzeResult } from "../analysis/analyze.ts";
import { MAX_READINGS, secondReading } from "../analysis/secondReading.ts";
import type { Client } from "../client/Client.ts";
import type { InvalidRecord, SignalDecoderStats } from "../codec/decodeSignal.ts";
import type { PresetRtsCodec } from "../codec/rts.ts";
import { readSignalInput, type OneThreadReason } from "../file/readSignalInput.ts";
import { DEFAULT_TIME_ZONE } from "../time/timeZone.ts";
import { formatInZone } from "../time/formatLocal.ts";
import { sensorSilences } from "../kernels/quality/sensorSilences.ts";
import {
  EXIT_FAILED,
  EXIT_OK,
  UsageError,
  connectionFlags,
  integerFlag,
  numberFlag,
  oneLine,
  parseFlags,
  parseFormat,
  rtsUnitFlag,
  timeFlag,
  timeZoneFlag,
  writeNdjson,
  type CliIo,
  type Command,
} from "./common.ts";
// Type only: the service path (client, source, rxjs) is imported when --shop is used, so
// `--input` does not pay for loading it.
import type { ThreadDecoderOptions } from "../file/RangeReader.ts";
import type { ClientDeps } from "./serviceClient.ts";
import { analysisRecords, recordsAnalysis } from "../analysis/analysisRecords.ts";
import { INTERVAL_MS_LIMITS } from "../kernels/people/peopleEstimatorOptions.ts";
import { writeAnalyzeTable } from "./analyzeTable.ts";
import type { LineDevice, SessionLinesRequest, SessionLineThreads } from "../file/SessionLineThreads.ts";
import { deviceIdOf, privacyFlags, privacyHelp, pseudonymizerFromFlags } from "./macKey.ts";
import { calibrationFlag } from "./calibrationFlag.ts";

const flags = {
  shop: { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
  input: { type: "string" },
  format: { type: "string" },
  tz: { type: "string" },
  threads: { type: "string" },
  shares: { type: "string" },
  "gap-ms": { type: "string" },
  "lateness-ms": { type: "string" },
  "clock-offsets": { type: "string" },
  "rts-unit": { type: "string" },
  "min-dwell-ms": { type: "string" },
  "visitor-rssi": { type: "string" },
  "fallback-rssi": { type: "string" },
  "opening-hours": { type: "string" },
  dwell: { type: "string" },
  interval: { type: "string" },
  "pool-days": { type: "boolean" },
  calibration: { type: "string" },
  "min-count": { type: "string" },
  ...privacyFlags,
  ...connectionFlags,
} as const;

const help = `usage: footfall analyze --shop ID --since ISO --until ISO [options]
       footfall analyze --input FILE.ndjson [options]

Turns Wi-Fi signal records into sessions, classifies them (visitor, passer-by, staff,
stationary), and summarises each shop and local day: visitors (an estimate of people with
its 90 % interval: phones rotate randomized MACs, so a MAC is not a person), passers-by,
capture rate, visitor dwell statistics and buckets, beside the MAC-level counts (unique
visitor devices, visits, unique devices, new/repeat visitors); and the estimated mean
number of people inside (with a 90 % interval) and outside each shop per --interval. Every
people figure says which calibration it rests on (--calibration, else the prior).

Input (one of):
  --shop ID --since ISO --until ISO   read the shop's records from the service
                                      (a bare date is local midnight in --tz)
  --rts-unit U                        how the service turns a datetime into RTS, which
                                      the interface does not publish: epoch ms (the
                                      sample's; default), s, us or ns
  --input FILE                        one raw service record (JSON) per line; "-" reads
                                      stdin (a named pipe or <(…) is read the same way);
                                      gzip-compressed (FILE.ndjson.gz) is read
                                      decompressed. Extra fields on a line (such as
                                      those \`footfall signals\` adds) are ignored. A
                                      line may also hold a whole page as the service
                                      answers it ({"signals":[…],"since":…}, saved
                                      from the API) or a JSON array of records.
  --threads N         with --input: threads in all; 1 reads, decodes and analyses on one
                      thread; with N ≥ 2, N − 1 threads decode parts of the input beside
                      the analysis (a gzip file or standard input is cut into parts as it
                      is decompressed), which decodes a part itself rather than wait
                      (identical results) [for files of about 500 000 records or more,
                      one per core up to 3, a gzip file one fewer (zlib takes one); else,
                      and for standard input, 1]
  --shares N          split the analysis by device into N shares, each building its
                      devices' sessions on a thread of its own (share 1 on the analysis
                      thread), beside the --threads that decode a file; the sessions
                      are merged back into one engine's order, so the results are
                      identical; up to 64 [1: on 2 cores a split costs more than it
                      saves]

Output:
  --format F          table (default): one row per shop and day: visitors (people, with
                      their 90 % interval), the calibration they rest on (its id, "(not
                      trusted)" after it when its use has warnings, or prior), the
                      MAC-level counts, capture %, dwell in minutes; then the sessions
                      by kind;
                      ndjson: one line per session {type:"session", shopId, device (a keyed
                      pseudonym, see Privacy), start,
                      end (epoch ms), date, dwellMs, estimatedDwellMs, signals, kind,
                      randomized, ...} (MAC-level: no people figure), then one line per
                      shop and local day {type:"summary", shopId, date, visitors,
                      visitorsLow, visitorsHigh (people: estimate and 90 % interval),
                      visits (MAC-level), passersBy (people), uniqueDevices (MACs),
                      captureRate (of people), pooledDays, calibration, macs: {visitors,
                      passersBy, uniqueDevices, captureRate} (MAC-level), dwell: {count,
                      meanMs, medianMs, p90Ms, buckets}, ..., peopleSample (what pooling
                      days needs)}, then one line per shop and interval
                      {type:"occupancy", shopId, start, end (epoch ms), inside, insideLow,
                      insideHigh (people inside: the mean over the interval, with its
                      90 % interval), outside (people heard outside), calibration, ...},
                      then one {type:"quality"} line

Analysis (defaults in brackets):
  --tz ZONE           shop time zone for local days and hours [Asia/Seoul]
  --gap-ms N          longest silence inside a session [300000]
  --lateness-ms N     how far records may arrive out of order [60000]; unset: records
                      later than that (a sensor uploading in batches) are read again with the
                      lateness that keeps them, up to a day (standard input or a pipe: the
                      flag to use is printed)
  --clock-offsets L   MAC=ms,… how far each sensor's clock runs ahead (subtracted from its
                      ts), or none; unset: records whose sensors' clocks disagree by ≥ 1 s
                      (from MACs two sensors heard in one burst) are read again and analysed
                      aligned (standard input or a pipe: the flag to use is printed)
  --min-dwell-ms N    shortest visit [60000]
  --visitor-rssi X    dBm a visit must reach, or "auto" to learn it per shop, refitted each
                      local day on the shop's sessions so far (a shop in --calibration: the
                      threshold its calibration pins) [auto]
  --fallback-rssi X   dBm used by "auto" until the data show two clear modes [-75]
  --opening-hours A-B local opening hours, for staff detection [10-22]
  --dwell B           estimated (last - first + one probe interval) or observed [estimated]
  --interval D        length of an occupancy interval: 15m, 1h, 900s (bare number:
                      minutes; 1 min to 1 day) [15m]
  --calibration FILE  people calibrations fitted on counted people ('footfall calibrate'):
                      each shop in the file is estimated with its own yardstick, the others
                      with the prior from real phones; every summary and occupancy line names
                      the calibration that applied (calibration: {id, start, end, trusted,
                      warnings}, or null for the prior), and so does the table [none]
  --pool-days         people per day from each shop's days in the input together: a day's
                      mean stay, learned from a few dozen universal-MAC visits (every
                      identity-known visit when the shop's days hold fewer than 10 of those),
                      is pooled with the shop's other days by random effects, which takes
                      most of a day's sampling error out; the burst yardstick stays each
                      day's own (the prior, or the shop's calibration), and so do its
                      passers-by. A day's figures then depend on the span read, so read a
                      fixed one (a week, a month) [off]

${privacyHelp}
  --min-count K              small-count suppression: in summary (and occupancy) lines and the
                             table, counts from 1 to K-1 are written as null ("<K" in the table)
                             with suppressed: true, never as zero [off]

Connection (for --shop): --signal-url URL (or FOOTFALL_SIGNAL_URL), --email EMAIL (or
FOOTFALL_EMAIL), --token TOKEN (or FOOTFALL_TOKEN; prefer the variable).

Exit status: 0 done; 1 the service failed or records were rejected (invalid, later than
--lateness-ms, or stamped more than a day ahead by one sensor); 2 bad usage.

Examples:
  footfall analyze --shop 101 --since 2026-11-16 --until 2026-11-17
  footfall signals backfill --shop 101 --since 2026-11-16T00:00+09:00 \\
    --until 2026-11-17T00:00+09:00 > day.ndjson
  footfall analyze --input day.ndjson --format ndjson`;

/**
 * Builds the `footfall analyze` command over the given dependencies (default: the real client,
 * loaded only when the command reads from the service).
 *
 * @example
 * const status = await analyzeCommand().run(["--input", "day.ndjson"], io);
 */
export function analyzeCommand(deps?: ClientDeps): Command {
  return {
    summary: "people (visitors, inside), sessions, dwell and proximity from signals (table or NDJSON)",
    help,
    check: (argv) => void parseFlags(argv, flags),
    run: (argv, io) => runAnalyze(argv, io, deps),
  };
}

/**
 * `footfall analyze`, as `main` loads it.
 *
 * @example
 * const status = await command.run(["--shop", "101", "--since", "2026-11-16", "--until", "2026-11-17"], io);
 */
export const command: Command = analyzeCommand();

async function runAnalyze(argv: readonly string[], io: CliIo, deps: ClientDeps | undefined): Promise<number> {
  const { values: all } = parseFlags(argv, flags);
  // The one boolean flag is read here; the helpers below read text flags.
  const { "raw-macs": rawMacs, "pool-days": poolDays, ...values } = all;
  const format = parseFormat(values.format, ["table", "ndjson"] as const, "table");
  const timeZone = timeZoneFlag(values.tz);
  // How the service turns a datetime into RTS: the source's cursor and the decoder's ts check.
  const rtsCodec = rtsUnitFlag(values["rts-unit"]);
  const calibration = values.calibration === undefined ? undefined : await calibrationFlag(values.calibration);
  const options: AnalyzeOptions = { ...analyzeOptions(values, timeZone, rtsCodec), poolDays: poolDays === true, ...(calibration === undefined ? {} : { calibration }) };
  // Key problems are usage errors found before any reading. The table prints no devices, so it
  // needs no key (and generates none) unless privacy flags were given, which are then checked.
  const privacyGiven = values["mac-key-file"] !== undefined || values["pseudonym-rotation"] !== undefined || rawMacs !== undefined;
  const writesDevices = format === "ndjson" || privacyGiven;
  const pseudonymizer = writesDevices ? pseudonymizerFromFlags({ ...values, "raw-macs": rawMacs }, io, "analyze") : undefined;
  const device = writesDevices ? deviceIdOf(pseudonymizer) : undefined;
  const minCount = integerFlag("--min-count", values["min-count"], 1, 1_000_000) ?? 0;
  // Decode threads, when the input is read on them, write the session lines while this thread closes the day.
  const lines: LinesBeside | undefined = format === "ndjson" ? { device: pseudonymizer?.copyOptions() ?? "raw", written: undefined } : undefined;
  const result = await analyzeFlags(values, options, rtsCodec, io, deps, "analyze", lines);
  if (typeof result === "number") return result;
  if (format === "ndjson") {
    // Should a thread have failed, the lines are written here from the result, as without threads.
    const written = await lines?.written?.finish().catch(() => undefined);
    for (const bytes of written ?? []) io.stdout.write(bytes);
    writeNdjson(io.stdout, analysisRecords(result, {
      minCount,
      linkedAcrossDays: values["pseudonym-rotation"] !== "daily",
      sessionLines: written === undefined,
      ...(device === undefined ? {} : { device }),
    }));
  } else writeAnalyzeTable(io, result, minCount, values["pseudonym-rotation"] !== "daily");
  warnSilences(io, result, options);
  warnCalibrations(io, result);
  return summarize(io, result);
}

/**
 * Session lines that decode threads write beside the analysis (`footfall analyze --format
 * ndjson`): how they show a device, and the lines of the last read (undefined when it had no
 * decode threads: the lines are then written from the result).
 *
 * @example
 * const lines: LinesBeside = { device: "raw", written: undefined };
 * lines.written; // undefined until a read on decode threads gives them
 */
export interface LinesBeside {
  readonly device: LineDevice;
  written: SessionLineThreads | undefined;
}

/**
 * Reads the input the flags name (`--input FILE` or `--shop/--since/--until` from the service)
 * into one analysis with `options`, reading it again where only a whole read shows what was wrong
 * (sensor clocks that disagree, records later than the allowed lateness: `secondReading`).
 * Shared by `footfall analyze` and `footfall calibrate`, which analyse their input alike.
 *
 * @param name the command, in messages (`footfall NAME: …`)
 * @param lines session lines for decode threads to write (see `readInputInThreads`): given the last read's (`written`)
 * @returns the result, or the exit status when reading failed
 * @example
 * const problem = await analyzeFlags({ input: "missing-day.ndjson" }, { timeZone: "Europe/Prague" }, rtsUnitFlag(undefined), io, undefined, "calibrate").catch((e: Error) => e.message);
 * problem; // "--input: cannot read missing-day.ndjson: ENOENT: no such file or directory, stat 'missing-day.ndjson'"
 */
export async function analyzeFlags(
  values: Readonly<Record<string, string | undefined>>,
  options: AnalyzeOptions,
  rtsCodec: PresetRtsCodec,
  io: CliIo,
  deps: ClientDeps | undefined,
  name: string,
  lines?: LinesBeside,
): Promise<AnalyzeResult | number> {
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const fromService = values.shop !== undefined || values.since !== undefined || values.until !== undefined;
  if (fromService === (values.input !== undefined)) {
    throw new UsageError("give either --input FILE or --shop ID --since ISO --until ISO");
  }

  // One invalid-record channel: the file reader, the source and the decoder all report through
  // the analyzer's decoder (which counts them); this only shows the first few.
  // The line being read, when reading a file (set by readInput).
  const at = { line: (): number => 0 };
  let shown = 0;
  const show = (x: InvalidRecord, line: number): void => {
    if (++shown <= 10) io.stderr.write(`footfall ${name}: rejected ${line === 0 ? "a record" : `line ${line}`}: ${x.message}\n`);
  };
  const threads = integerFlag("--threads", values["threads"], 1);
  const shares = integerFlag("--shares", values["shares"], 1, 64);
  const clockFlag = clockOffsetsFlag(values["clock-offsets"]);

  // The file --input names, looked at once for every read (undefined: standard input, or none).
  const inputFile = values.input === undefined || values.input === "-" ? undefined : await inputFileStats(values.input);
  // One whole analysis with `analysis` (the decode threads align clocks themselves: `clockOffsetsMs`).
  const analyzeOnce = async (analysis: AnalyzeOptions, clockOffsetsMs: Readonly<Record<string, number>> | undefined): Promise<AnalyzeResult | number> => {
    let analyzer: Analyzer;
    try {
      analyzer = new Analyzer({ ...analysis, decode: { ...analysis.decode, onInvalid: (x: InvalidRecord) => show(x, at.line()) } });
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    let decodedElsewhere: SignalDecoderStats | undefined;
    // An earlier read's lines are not this read's: its threads are let go.
    void lines?.written?.finish().catch(() => undefined);
    if (lines !== undefined) lines.written = undefined;
    const sessionLines: SessionLinesRequest | undefined = lines && { device: lines.device, onThreads: (written) => (lines.written = written) };
    try {
      if (values.input !== undefined) {
        decodedElsewhere = await readInput(values.input, inputFile, { threads, shares }, analyzer, io, show, at, { clockOffsetsMs, rtsUnit: rtsCodec.unit }, sessionLines);
      } else {
        if (threads !== undefined) throw new UsageError("--threads applies to --input");
        await readService(values, timeZone, rtsCodec, shares ?? 1, analyzer, io, deps);
      }
    } catch (error) {
      if (error instanceof UsageError) throw error;
      io.stderr.write(`footfall ${name}: ${oneLine(error instanceof Error ? error.message : String(error))}\n`);
      return EXIT_FAILED;
    }
    return analyzer.finish(decodedElsewhere);
  };
  // Standard input, a named pipe or `--input <(…)` can be read only once.
  const readOnce = values.input !== undefined && inputFile?.isFile() !== true;
  const given = clockFlag === "none" || clockFlag === undefined ? undefined : clockFlag;
  const firstOptions = given === undefined ? options : withAlignedClocks(options, given);
  let result = await analyzeOnce(firstOptions, given);
  if (typeof result === "number") return result;
  // What only a whole read shows — sensor clocks that disagree (they split the probe bursts two
  // sensors share, and the people estimate with them) and records later than the allowed
  // lateness — is put right by reading a file or the service again (secondReading, the rule the
  // fleet's analyzeShopDay follows); an input that cannot be read twice is told how.
  // (Late records of such an input are named with the flag that keeps them by summarize, below.)
  // Clocks are looked at once a read kept every record, so both take a read each.
  let used = firstOptions;
  for (let reads = 1; reads < MAX_READINGS; reads++) {
    const again = secondReading(result, used, { alignClocks: clockFlag === undefined, keepLate: values["lateness-ms"] === undefined && !readOnce });
    if (again === undefined) break;
    // One reason and one flag per change, e.g. "…; analysed again with them aligned (--clock-offsets …;
    // --clock-offsets none keeps them as stamped)".
    const reasons: string[] = [];
    const done: string[] = [];
    const flags: string[] = [];
    const undo: string[] = [];
    if (again.clockOffsetsMs !== undefined) {
      const offsets = Object.entries(again.clockOffsetsMs);
      reasons.push(`sensor clocks disagree with their shop's other sensors (${offsets.map(([mac, ms]) => `${mac} ${ms > 0 ? "+" : ""}${(ms / 1000).toFixed(1)} s`).join(", ")})`);
      done.push("with them aligned");
      flags.push(`--clock-offsets ${offsets.map(([mac, ms]) => `${mac}=${ms}`).join(",")}`);
      undo.push("--clock-offsets none keeps them as stamped");
    }
    if (again.allowedLatenessMs !== undefined) {
      reasons.push(
        `${result.late} record(s) came later than the allowed lateness (the latest ${(result.maxLateMs / 1000).toFixed(1)} s behind its shop's newest record: a sensor that uploads in batches?)`,
      );
      done.push("keeping them");
      flags.push(`--lateness-ms ${again.allowedLatenessMs}`);
      undo.push("--lateness-ms sets it");
    }
    if (readOnce) {
      io.stderr.write(`footfall ${name}: ${reasons.join("; ")}: figures are off; run again with ${flags.join(" ")}\n`);
      break;
    }
    io.stderr.write(`footfall ${name}: ${reasons.join("; ")}; analysed again ${done.join(" and ")} (${flags.join(" ")}; ${undo.join("; ")})\n`);
    shown = Number.POSITIVE_INFINITY; // the same rejections were shown the first time
    used = again.apply(used);
    result = await analyzeOnce(used, used.decode?.clockOffsetsMs);
    if (typeof result === "number") return result;
  }
  return result;
}

// A calibration applied but not to be trusted (few counts, stale, other settings): the lines say
// so in `calibration.warnings`; a person reading the table should hear it too, once per shop.
function warnCalibrations(io: CliIo, result: AnalyzeResult): void {
  const said = new Set<string>();
  for (const p of result.people) {
    const c = p.calibration;
    if (c === null || c.trusted) continue;
    const line = `shop ${p.shopId}: calibration ${c.id} is not to be trusted (${c.warnings.join("; ")})`;
    if (said.has(line)) continue;
    said.add(line);
    io.stderr.write(`footfall analyze: ${line}\n`);
  }
}

// Sensors silent during opening hours: footfall lost nothing (exit status unchanged), but the
// figures of that time are low, and the table alone would not show it.
function warnSilences(io: CliIo, result: AnalyzeResult, options: AnalyzeOptions): void {
  if (result.quality === undefined) return;
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const silences = sensorSilences(result.quality, { timeZone, ...(options.classify?.openingHours === undefined ? {} : { openingHours: options.classify.openingHours }) });
  const local = (ms: number) => formatInZone(ms, timeZone, "minute");
  for (const s of silences) {
    const until = s.edge === "end" ? "the end of the data" : local(s.to);
    io.stderr.write(
      `footfall analyze: sensor ${s.sensor} of shop ${s.shopId} heard nothing from ${local(s.from)} to ${until} ` +
        `(${(s.openMs / 3_600_000).toFixed(1)} h of opening hours): figures of that time are low\n`,
    );
  }
}

/**
 * The analysis options of the analysis flags (`--gap-ms`, `--visitor-rssi`, `--interval`, …),
 * checked (UsageError): shared by `footfall analyze` and `footfall calibrate`.
 *
 * @example
 * analyzeOptions({ interval: "15m" }, "Europe/Prague", rtsUnitFlag(undefined)).people; // { intervalMs: 900000 }
 */
export function analyzeOptions(values: Readonly<Record<string, string | undefined>>, timeZone: string, rtsCodec: PresetRtsCodec): AnalyzeOptions {
  const gapMs = numberFlag("--gap-ms", values["gap-ms"], 0, Number.MAX_SAFE_INTEGER);
  const allowedLatenessMs = numberFlag("--lateness-ms", values["lateness-ms"], 0, Number.MAX_SAFE_INTEGER);
  const minDwellMs = numberFlag("--min-dwell-ms", values["min-dwell-ms"], 0, Number.MAX_SAFE_INTEGER);
  const fallbackVisitorRssi = numberFlag("--fallback-rssi", values["fallback-rssi"], -127, 0);
  let visitorRssi: number | "auto" | undefined;
  if (values["visitor-rssi"] === "auto") visitorRssi = "auto";
  else visitorRssi = numberFlag("--visitor-rssi", values["visitor-rssi"], -127, 0);
  let openingHours: [number, number] | undefined;
  if (values["opening-hours"] !== undefined) {
    const m = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(values["opening-hours"]);
    if (m === null || !(Number(m[2]) > Number(m[1])) || Number(m[2]) > 24) {
      throw new UsageError("--opening-hours must look like 10-22 (local hours, open < close ≤ 24)");
    }
    openingHours = [Number(m[1]), Number(m[2])];
  }
  const dwell = values.dwell;
  if (dwell !== undefined && dwell !== "estimated" && dwell !== "observed") throw new UsageError("--dwell must be estimated or observed");
  return {
    timeZone,
    sessions: {
      ...(gapMs === undefined ? {} : { gapMs }),
      ...(allowedLatenessMs === undefined ? {} : { allowedLatenessMs }),
    },
    classify: {
      ...(minDwellMs === undefined ? {} : { minDwellMs }),
      ...(visitorRssi === undefined ? {} : { visitorRssi }),
      ...(fallbackVisitorRssi === undefined ? {} : { fallbackVisitorRssi }),
      ...(openingHours === undefined ? {} : { openingHours }),
    },
    dwell: dwell === undefined ? {} : { dwell },
    ...recordsAnalysis,
    people: values.interval === undefined ? {} : { intervalMs: intervalFlag(values.interval) },
    // The decoder compares each record's ts with its RTS, read in the service's unit.
    decode: { rtsCodec },
  };
}

// `--clock-offsets`: "none", or MAC=ms pairs (ms the sensor's clock runs ahead), comma-separated.
function clockOffsetsFlag(value: string | undefined): Record<string, number> | "none" | undefined {
  if (value === undefined || value === "none") return value;
  const out: Record<string, number> = {};
  for (const part of value.split(",")) {
    const m = /^\s*([^=\s]+)\s*=\s*([+-]?\d+)\s*$/.exec(part);
    if (m === null) throw new UsageError(`--clock-offsets must be none or MAC=ms,… (whole ms the sensor's clock runs ahead), got ${JSON.stringify(part)}`);
    out[m[1]!] = Number(m[2]);
  }
  return out;
}

// `--interval`: a duration with s / m / h (a bare number is minutes), within the estimator's
// INTERVAL_MS_LIMITS (1 min to 1 day, whole ms).
function intervalFlag(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(value.trim());
  const ms = m === null ? Number.NaN : Number(m[1]) * (m[2] === "s" ? 1000 : m[2] === "h" ? 3_600_000 : 60_000);
  const { min, max } = INTERVAL_MS_LIMITS;
  if (!Number.isInteger(ms) || ms < min || ms > max) {
    throw new UsageError(`--interval must be a duration from ${min / 60_000}m to ${max / 3_600_000}h such as 15m, 1h or 900s, got ${JSON.stringify(value)}`);
  }
  return ms;
}

// Returns the counters of the decode threads when they were used (else the analyzer decoded).
async function readInput(
  path: string,
  // The file's stats (undefined for standard input).
  info: Stats | undefined,
  { threads, shares }: { threads: number | undefined; shares: number | undefined },
  analyzer: Analyzer,
  io: CliIo,
  show: (invalid: InvalidRecord, line: number) => void,
  at: { line: () => number },
  // The analyzer's decoder options, for decode threads (which build their own decoders).
  decode: ThreadDecoderOptions,
  // Session lines for decode threads to write.
  sessionLines: SessionLinesRequest | undefined,
): Promise<SignalDecoderStats | undefined> {
  const name = path === "-" ? "(standard input)" : path;
  let decoded: SignalDecoderStats | undefined;
  try {
    decoded = await readSignalInput(info === undefined ? { stream: process.stdin } : { path, info }, analyzer, {
      threads,
      shares,
      decode,
      sessionLines,
      signal: io.signal,
      onInvalidLine: show,
      onReader: (reader) => (at.line = () => reader.line),
      onOneThread: (why) => {
        throw new UsageError(`--threads above 1 needs ${ONE_THREAD_WHY[why](path)}`);
      },
    });
  } catch (error) {
    // Stopped by Ctrl-C: reported as interrupted below.
    if (error instanceof UsageError) throw error;
    if (!io.signal.aborted) throw new Error(`--input ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (io.signal.aborted) throw new Error("interrupted");
  return decoded;
}

// What --threads above 1 needs, by why the input is read on one thread (the CLI's codecs are all presets).
const ONE_THREAD_WHY: Record<OneThreadReason, (path: string) => string> = {
  codec: () => "a preset RTS unit (a codec of its own is read on one thread)",
};

// The stats of the file --input names: a usage error when it cannot be read or is a directory.
async function inputFileStats(path: string): Promise<Stats> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch (e) {
    throw new UsageError(`--input: cannot read ${path}: ${(e as Error).message}`);
  }
  if (info.isDirectory()) throw new UsageError(`--input: ${path} is a directory`);
  return info;
}


async function readService(
  values: Readonly<Record<string, string | undefined>>,
  timeZone: string,
  rtsCodec: PresetRtsCodec,
  shares: number,
  analyzer: Analyzer,
  io: CliIo,
  deps: ClientDeps | undefined,
): Promise<void> {
  const [{ signals }, { defaultClientDeps, serviceClient }, { signalFeed }] = await Promise.all([
    import("../source/signals.ts"),
    import("./serviceClient.ts"),
    import("../file/ShareThreads.ts"),
  ]);
  const shopId = integerFlag("--shop", values.shop, 0);
  if (shopId === undefined) throw new UsageError("--shop ID (a number) is required");
  // A bare date is local midnight in the shop's zone: the days analyze reports are local days.
  const since = timeFlag("--since", values.since, timeZone);
  const until = timeFlag("--until", values.until, timeZone);
  if (since === undefined || until === undefined) throw new UsageError("--since and --until are required with --shop");
  if (until <= since) throw new UsageError("--until must be after --since");
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(io.signal.reason);
  io.signal.addEventListener("abort", onAbort, { once: true });
  let client: Client;
  try {
    client = serviceClient(values, io, deps ?? defaultClientDeps, { name: "analyze", uses: "signals", signal: controller.signal });
  } catch (error) {
    io.signal.removeEventListener("abort", onAbort);
    throw error;
  }
  // Split by device over `shares` threads (`--shares`), as a file is.
  const feed = signalFeed(analyzer, shares);
  const decoder = analyzer.decoder;
  try {
    await new Promise<void>((resolve, reject) => {
      signals(client, {
        shopId,
        since,
        until,
        rtsCodec,
        signal: controller.signal,
        // Records with an unusable row_key or a mistyped field never leave the source; they are rejected like the decoder's.
        onInvalid: (x) => analyzer.reject(x),
      }).subscribe({
        next: (record) => {
          const s = decoder.decode(record);
          if (s !== undefined) feed.push(s);
        },
        error: reject,
        complete: resolve,
      });
    });
    await feed.finish();
  } finally {
    io.signal.removeEventListener("abort", onAbort);
    await feed.close();
  }
}

function summarize(io: CliIo, result: AnalyzeResult): number {
  const invalid = result.decoder.invalid;
  const parts: string[] = [];
  if (invalid > 0) parts.push(`${invalid} record(s) rejected`);
  if (result.late > 0) {
    // Say how much lateness would have kept them: usually one sensor uploading in batches.
    const keep = Math.ceil(result.maxLateMs);
    parts.push(
      `${result.late} record(s) later than the allowed lateness were not used (the latest was ${(keep / 1000).toFixed(1)} s behind ` +
        `its shop's newest record; --lateness-ms ${keep} keeps them all)`,
    );
  }
  if (result.ahead > 0) {
    parts.push(`${result.ahead} record(s) stamped more than a day ahead of their shop's other records, by one sensor alone (a clock that jumped), were not used`);
  }
  if (parts.length === 0) return EXIT_OK;
  io.stderr.write(`footfall analyze: ${parts.join("; ")}\n`);
  return EXIT_FAILED;
}
