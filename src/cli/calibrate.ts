import { rename, writeFile } from "node:fs/promises";
import type { AnalyzeOptions } from "../analysis/analyze.ts";
import { calibrationFromEstimates, calibrationSettings } from "../analysis/calibrate.ts";
import { isTruthInputError } from "../errors/TruthInputError.ts";
import type { Calibration } from "../kernels/calibration/Calibration.ts";
import type { PeopleEstimate } from "../kernels/people/PeopleEstimate.ts";
import type { CountedTruth } from "../truth/CountedTruth.ts";
import { readTruth } from "../truth/readTruth.ts";
import { analyzeFlags, analyzeOptions } from "./analyze.ts";
import { EXIT_FAILED, EXIT_OK, UsageError, connectionFlags, numberFlag, parseFlags, rtsUnitFlag, timeZoneFlag, type CliIo, type Command } from "./common.ts";
import type { ClientDeps } from "./serviceClient.ts";

const flags = {
  input: { type: "string", multiple: true },
  shop: { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
  truth: { type: "string", multiple: true },
  out: { type: "string" },
  tz: { type: "string" },
  "rts-unit": { type: "string" },
  "gap-ms": { type: "string" },
  "lateness-ms": { type: "string" },
  "clock-offsets": { type: "string" },
  "min-dwell-ms": { type: "string" },
  "visitor-rssi": { type: "string" },
  "fallback-rssi": { type: "string" },
  "opening-hours": { type: "string" },
  interval: { type: "string" },
  "min-coverage": { type: "string" },
  "half-life-days": { type: "string" },
  ...connectionFlags,
} as const;

const help = `usage: footfall calibrate --input FILE [--input FILE ...] --truth FILE [--truth FILE ...] --out FILE [options]
       footfall calibrate --shop ID --since ISO --until ISO --truth FILE --out FILE [options]

Fits each shop's people calibration on counted people: what the shop's devices are worth in
people inside — randomized MACs and universal devices by how strongly they were heard, and the
stationary devices footfall finds — learned from two counted days of intervals on, with its
error on the days left out; with fewer counts, one scale (how many probe bursts one person inside
is worth there). Give every counted day you have: newer days weigh more. Use it with 'footfall
analyze --calibration FILE' (and 'footfall fleet calibration set').

Counted truth (--truth, repeatable): CSV with a header, either
  shop_id,start,end,people   people inside over [start, end), ISO 8601 times with an offset
  shop_id,date,visitors      an entrance count per local day (a door counter)
Rows whose count is NaN or empty are unknown and skipped.

Options (defaults in brackets):
  --out FILE           the calibration file to write (JSON, versioned), replaced whole
  --tz ZONE            shop time zone [Asia/Seoul]; use the same when analysing; a bare
                       --since/--until date is local midnight in it
  --interval D         occupancy interval [15m]; use the same when analysing
  --min-coverage X     least share of an interval the counts must cover (0-1] [0.5]
  --half-life-days N   a counted day weighs half as much N days before the newest [30]
  --visitor-rssi X     a fixed visit threshold (dBm): the calibration records and pins it
                       (the shop is then analysed at it) [auto: learned day by day]
  --gap-ms, --lateness-ms, --clock-offsets, --min-dwell-ms, --fallback-rssi,
  --opening-hours, --rts-unit   as for 'footfall analyze'

Connection (for --shop): --signal-url URL (or FOOTFALL_SIGNAL_URL), --email EMAIL (or
FOOTFALL_EMAIL), --token TOKEN (or FOOTFALL_TOKEN; prefer the variable).

Exit status: 0 written, every calibration trusted; 1 written, but a calibration is not
trusted (the reason is printed and kept in the file), or reading the signals failed;
2 bad usage or bad truth (the file and line are named; nothing is written).

Example:
  footfall calibrate --input monday.ndjson.gz --input tuesday.ndjson.gz \\
    --truth counts.csv --tz Europe/Prague --out lab.calibration.json`;

/**
 * `footfall calibrate`: fits people calibrations from signals and counted truth.
 *
 * @example
 * // Bad truth is bad usage (exit 2 through `main`): here, a truth file that is missing.
 * const status = await command.run(["--input", "day.ndjson.gz", "--truth", "missing-counts.csv", "--out", "cal.json"], io).catch((e: Error) => e.name);
 */
export const command: Command = calibrateCommand();

/**
 * Builds the `footfall calibrate` command over the given dependencies (default: the real client,
 * loaded only when the command reads from the service).
 *
 * @example
 * calibrateCommand().summary; // "fit people calibrations on counted people"
 */
export function calibrateCommand(deps?: ClientDeps): Command {
  return { summary: "fit people calibrations on counted people", help, check: (argv) => void parseFlags(argv, flags), run: (argv, io) => runCalibrate(argv, io, deps) };
}

async function runCalibrate(argv: readonly string[], io: CliIo, deps: ClientDeps | undefined): Promise<number> {
  const { values } = parseFlags(argv, flags);
  const { input = [], truth: truthFiles = [], out, "min-coverage": coverageFlag, "half-life-days": halfLifeFlag, ...rest } = values;
  if (truthFiles.length === 0) throw new UsageError("give the counted people with --truth FILE (repeatable)");
  if (out === undefined) throw new UsageError("give the calibration file to write with --out FILE");
  const fromService = rest.shop !== undefined || rest.since !== undefined || rest.until !== undefined;
  if (fromService === (input.length > 0)) throw new UsageError("give either --input FILE (repeatable) or --shop ID --since ISO --until ISO");
  const minCoverage = numberFlag("--min-coverage", coverageFlag, Number.MIN_VALUE, 1) ?? 0.5;
  const halfLifeDays = numberFlag("--half-life-days", halfLifeFlag, Number.MIN_VALUE, Number.POSITIVE_INFINITY);
  const timeZone = timeZoneFlag(rest.tz);
  const rtsCodec = rtsUnitFlag(rest["rts-unit"]);
  const options: AnalyzeOptions = { ...analyzeOptions(rest, timeZone, rtsCodec), proximity: false, quality: false, hourly: false };

  // Bad truth is bad usage: read it before any signal, so nothing is analysed for nothing.
  let truth: CountedTruth;
  try {
    truth = await readTruth(truthFiles);
  } catch (error) {
    if (isTruthInputError(error)) throw new UsageError(error.message);
    throw error;
  }
  if (truth.segments.length === 0 && truth.daily.length === 0) throw new UsageError(`${truthFiles.join(", ")}: no known count (every row unknown)`);
  if (truth.unknownRows > 0) io.stderr.write(`footfall calibrate: ${truth.unknownRows} truth row(s) with an unknown count (NaN or empty) skipped\n`);

  const estimates: PeopleEstimate[] = [];
  for (const file of fromService ? [undefined] : input) {
    const result = await analyzeFlags(file === undefined ? rest : { ...rest, input: file }, options, rtsCodec, io, deps, "calibrate");
    if (typeof result === "number") return result;
    estimates.push(...result.people);
  }
  const fit = calibrationFromEstimates(estimates, truth, { ...calibrationSettings(options), minCoverage, allowNoOverlap: true, ...(halfLifeDays === undefined ? {} : { halfLifeDays }) });
  // A shop that was counted but not heard, or heard on other days, is a mistake in the truth (a
  // wrong shop id, the wrong file): name its first row, and write nothing.
  if (fit.shopsWithoutOverlap.length > 0) {
    const first = fit.shopsWithoutOverlap.map((shopId) => [...truth.segments, ...truth.daily].find((r) => r.shopId === shopId)!);
    throw new UsageError(first.map((r) => `${r.source}:${r.line}: shop ${r.shopId} has no analysed day that its counts overlap (unknown shop, or counts of other days)`).join("; "));
  }
  // Written whole or not at all: a temporary file beside it, renamed over it.
  const temporary = `${out}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(fit.file, null, 2)}\n`);
  await rename(temporary, out);
  let untrusted = 0;
  for (const c of fit.calibrations) {
    io.stderr.write(`footfall calibrate: shop ${c.shopId}: ${c.id}, ${calibrationSummary(c)}${c.trusted ? "" : `; NOT TRUSTED: ${c.warnings.join("; ")}`}\n`);
    if (!c.trusted) untrusted++;
  }
  io.stderr.write(`footfall calibrate: wrote ${fit.calibrations.length} calibration(s) to ${out}\n`);
  return untrusted > 0 ? EXIT_FAILED : EXIT_OK;
}

// What a user needs to know of a calibration: what estimates with it, on what it rests, how well.
function calibrationSummary(c: Calibration): string {
  const days = `${c.counts.intervals} counted intervals and ${c.counts.dailyCounts} daily counts over ${c.counts.days} day(s)`;
  const m = c.model;
  if (m !== null) {
    const weighted = m.coefficients.filter((x) => x > 0).length;
    return `a model of people inside (${weighted} of ${m.features.length} features weighed${m.intercept !== 0 ? ", an intercept" : ""}), from ${days}; it errs by ${m.validationMae.toFixed(1)} persons on a counted day it was fitted without`;
  }
  const low = c.burstsPerMinute * Math.exp(-1.645 * c.logSe);
  const high = c.burstsPerMinute * Math.exp(1.645 * c.logSe);
  return `one scale (a model needs intervals of 2 counted days): ${c.burstsPerMinute.toFixed(3)} bursts per person per minute [${low.toFixed(3)}, ${high.toFixed(3)}] (day-to-day ×${Math.exp(c.dayLogSd).toFixed(2)}), from ${days}`;
}
