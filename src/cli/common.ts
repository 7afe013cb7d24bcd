import { readFileSync } from "node:fs";
import { rtsCodecForUnit, type PresetRtsCodec } from "../codec/rts.ts";
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { WorldOptions } from "../sim/createWorld.ts";
import type { Rotation } from "../sim/phones/MacBehaviour.ts";
import { epochDayOfDate } from "../time/calendarDate.ts";
import { DEFAULT_TIME_ZONE, assertTimeZone, localMidnight } from "../time/timeZone.ts";
import { parseISO } from "date-fns/parseISO";

/**
 * Exit status: all done (docs/architecture.md).
 *
 * @example
 * return EXIT_OK;
 */
export const EXIT_OK = 0;
/**
 * Exit status: something was rejected, failed or not uploaded; or the service failed.
 *
 * @example
 * return report.failed > 0 ? EXIT_FAILED : EXIT_OK;
 */
export const EXIT_FAILED = 1;
/**
 * Exit status: bad usage (unknown flag, missing setting, malformed value).
 *
 * @example
 * if (error instanceof UsageError) return EXIT_USAGE;
 */
export const EXIT_USAGE = 2;

/**
 * A command-line mistake: printed as one line, exit status 2.
 *
 * @example
 * throw new UsageError("--shop is required"); // UsageError
 */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * The reason `CliIo.signal` is aborted with when standard output's reader went away
 * (`footfall analyze … | head`): the command stops as on Ctrl-C, and `main` exits 1 without a
 * message (the reader asked for no more; there is nothing to tell it).
 *
 * @example
 * new AbortController().abort(new OutputClosedError()); // an AbortSignal whose reason is it
 */
export class OutputClosedError extends Error {
  override name = "OutputClosedError";
  constructor() {
    super("output closed");
  }
}

/** What a subcommand module exports. */
export interface Command {
  /** One line for `footfall --help`. */
  readonly summary: string;
  /** Full `--help` text. */
  readonly help: string;
  /**
   * Reads a command line as `run` reads it, without running anything (no file, environment,
   * network or server is touched): throws a {@link UsageError} for an unknown flag or
   * subcommand, a flag without its value or an unexpected argument. Flag values that need the
   * command's files or settings to judge are checked by `run`.
   */
  check(argv: readonly string[]): void;
  /** Runs the command; resolves to the exit status. Throws UsageError for bad usage. */
  run(argv: readonly string[], io: CliIo): Promise<number>;
}

/** The process streams and environment a command uses, injectable for tests. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted on Ctrl-C, SIGTERM, and with an {@link OutputClosedError} when stdout's reader went away. */
  readonly signal: AbortSignal;
}

/**
 * `util.parseArgs` with strict flags, turning its errors into {@link UsageError}s. A flag that
 * takes a value takes a negative number after it as that value — `--visitor-rssi -70`, as the
 * help writes it, as well as `--visitor-rssi=-70` — where `util.parseArgs` alone calls it
 * ambiguous (it might be a flag); no flag of footfall's is a dash and digits.
 *
 * @example
 * parseFlags(["--shop", "3"], { shop: { type: "string" } }).values.shop; // "3"
 * parseFlags(["--visitor-rssi", "-70"], { "visitor-rssi": { type: "string" } }).values["visitor-rssi"]; // "-70"
 */
export function parseFlags<const O extends NonNullable<ParseArgsConfig["options"]>>(
  argv: readonly string[],
  options: O,
  allowPositionals = false,
): ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: boolean }>> {
  try {
    return parseArgs({ args: withNegativeValues(argv, options), options, strict: true, allowPositionals });
  } catch (error) {
    // util.parseArgs explains some mistakes over several lines; a usage error is one line.
    throw new UsageError(oneLine(error instanceof Error ? error.message : String(error)));
  }
}

// A negative number as a flag's value: -70, -2.5, -.5, -1e3.
const NEGATIVE_NUMBER = /^-(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

// `--flag -70` → `--flag=-70` for a flag that takes a value, the one spelling util.parseArgs
// reads as a value; everything else is left for it to judge. A value taken here or by
// util.parseArgs (`--email x`) is skipped, so it is never read as a flag itself; nothing after
// `--` is touched.
function withNegativeValues(argv: readonly string[], options: NonNullable<ParseArgsConfig["options"]>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      out.push(...argv.slice(i));
      break;
    }
    const name = arg.startsWith("--") && !arg.includes("=") ? arg.slice(2) : undefined;
    const takesValue = name !== undefined && Object.hasOwn(options, name) && options[name]!.type === "string";
    const next = argv[i + 1];
    if (!takesValue || next === undefined) {
      out.push(arg);
      continue;
    }
    if (NEGATIVE_NUMBER.test(next)) out.push(`${arg}=${next}`);
    else if (next.startsWith("-")) {
      out.push(arg);
      continue;
    } else out.push(arg, next);
    i++;
  }
  return out;
}

/**
 * Connection flags shared by every command that talks to the service.
 *
 * @example
 * const { values } = parseFlags(argv, { format: { type: "string" }, ...connectionFlags });
 */
export const connectionFlags = {
  "base-url": { type: "string" },
  "signal-url": { type: "string" },
  email: { type: "string" },
  token: { type: "string" },
} as const;

/** Settings a command may need; each command asks only for what it uses. */
export interface ConnectionSettings {
  readonly baseUrl?: string;
  readonly signalUrl?: string;
  readonly email?: string;
  readonly token?: string;
}

const ENV_NAMES = {
  baseUrl: ["base-url", "FOOTFALL_BASE_URL"],
  signalUrl: ["signal-url", "FOOTFALL_SIGNAL_URL"],
  email: ["email", "FOOTFALL_EMAIL"],
  token: ["token", "FOOTFALL_TOKEN"],
} as const;

/**
 * Reads connection settings from flags, then the environment, requiring only `needed`.
 * A missing one is a UsageError naming both the flag and the variable.
 *
 * @example
 * const s = connectionSettings(values, io.env, ["baseUrl", "email", "token"]);
 */
export function connectionSettings(
  values: Readonly<Record<string, unknown>>,
  env: CliIo["env"],
  needed: readonly (keyof ConnectionSettings)[],
): Required<Pick<ConnectionSettings, (typeof needed)[number]>> & ConnectionSettings {
  const out: Record<string, string> = {};
  for (const key of Object.keys(ENV_NAMES) as (keyof ConnectionSettings)[]) {
    const [flag, variable] = ENV_NAMES[key];
    const value = values[flag] ?? env[variable];
    if (typeof value === "string" && value !== "") out[key] = value;
    else if (needed.includes(key)) throw new UsageError(`missing --${flag} (or ${variable})`);
  }
  return out as Required<ConnectionSettings>;
}

/**
 * Writes one JSON value per line.
 *
 * @example
 * writeNdjson(process.stdout, [{ id: 1, name: "Cafe Mori" }]);
 */
export function writeNdjson(out: NodeJS.WritableStream, rows: Iterable<unknown>): void {
  // Rows joined into writes of about 64 KiB: one write per row is one system call per session.
  let buffer = "";
  for (const row of rows) {
    buffer += `${JSON.stringify(row)}\n`;
    if (buffer.length >= 1 << 16) {
      out.write(buffer);
      buffer = "";
    }
  }
  if (buffer !== "") out.write(buffer);
}

/**
 * Renders rows as an aligned plain-text table (numbers right-aligned).
 *
 * @example
 * formatTable([{ id: 1, name: "Cafe Mori" }]); // "id  name\n 1  Cafe Mori\n"
 */
export function formatTable(rows: readonly Readonly<Record<string, unknown>>[], columns?: readonly string[]): string {
  const cols = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cells = rows.map((r) => cols.map((c) => cellText(r[c])));
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const numeric = cols.map((c) => rows.length > 0 && rows.every((r) => typeof r[c] === "number" || r[c] == null));
  const line = (values: readonly string[]) =>
    values.map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join("  ").trimEnd();
  return [line(cols), ...cells.map(line)].join("\n") + "\n";
}

function cellText(value: unknown): string {
  if (value == null) return "";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(2);
  return String(value);
}

/**
 * Reads `--format`, falling back to `fallback`; anything else is a {@link UsageError}.
 *
 * @example
 * parseFormat("ndjson", ["table", "ndjson"] as const, "table"); // "ndjson"
 */
export function parseFormat<F extends string>(value: unknown, allowed: readonly F[], fallback: F): F {
  if (value === undefined) return fallback;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as F;
  throw new UsageError(`--format must be one of ${allowed.join(", ")}`);
}

/**
 * A number flag: `undefined` when absent, else a finite number within [`min`, `max`]; anything
 * else is a {@link UsageError} naming the flag.
 *
 * @example
 * numberFlag("--speed", "60", 0); // 60
 */
export function numberFlag(name: string, value: string, min?: number, max?: number): number;
export function numberFlag(name: string, value: string | undefined, min?: number, max?: number): number | undefined;
export function numberFlag(name: string, value: string | undefined, min = -Infinity, max = Infinity): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) throw new UsageError(`${name} must be a number, got ${JSON.stringify(value)}`);
  if (n < min || n > max) throw new UsageError(`${name} must be a number in ${min}…${max}, got ${JSON.stringify(value)}`);
  return n;
}

/**
 * An integer flag (decimal digits, optionally negative): `undefined` when absent, else a safe
 * integer within [`min`, `max`]; anything else is a {@link UsageError} naming the flag.
 *
 * @example
 * integerFlag("--limit", "200", 1, 200); // 200
 */
export function integerFlag(name: string, value: string, min?: number, max?: number): number;
export function integerFlag(name: string, value: string | undefined, min?: number, max?: number): number | undefined;
export function integerFlag(
  name: string,
  value: string | undefined,
  min = Number.MIN_SAFE_INTEGER,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n)) throw new UsageError(`${name} must be an integer, got ${JSON.stringify(value)}`);
  if (n < min || n > max) throw new UsageError(`${name} must be ${min}-${max}, got ${value}`);
  return n;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A time flag → epoch ms, `undefined` when absent: an ISO 8601 date-time (with an offset; without
 * one it is the machine's local time), or a bare date `YYYY-MM-DD`, which means local midnight in
 * `bareDateZone` (each command says which zone its dates are in). Anything else, an impossible
 * date or a time before 1970 is a {@link UsageError}.
 *
 * @example
 * timeFlag("--since", "2026-11-20", "Asia/Seoul");         // 1795100400000 (00:00 KST)
 * timeFlag("--since", "2026-11-20T09:00:00+09:00", "UTC"); // 1795132800000
 */
export function timeFlag(name: string, value: string | undefined, bareDateZone: string): number | undefined {
  if (value === undefined) return undefined;
  let ms = Number.NaN;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = epochDayOfDate(value);
    if (day !== undefined) ms = localMidnight(day, bareDateZone);
  } else if (ISO_DATE_TIME.test(value)) {
    // date-fns rejects impossible dates (2026-02-30T10:00Z) that Date.parse would roll over.
    ms = parseISO(value).getTime();
  }
  if (!Number.isFinite(ms) || ms < 0) {
    throw new UsageError(`${name} must be an ISO date or date-time, e.g. 2026-11-20T09:00:00+09:00; got ${JSON.stringify(value)}`);
  }
  return ms;
}

/**
 * `--seed`: decimal digits are a number, other text a string seed (the simulator hashes it);
 * `undefined` when absent. An empty seed is a {@link UsageError}.
 *
 * @example
 * seedFlag("7");    // 7
 * seedFlag("demo"); // "demo"
 */
export function seedFlag(value: string | undefined): number | string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "") throw new UsageError("--seed must not be empty");
  return /^-?\d+$/.test(value) ? Number(value) : value;
}

/**
 * `--world FILE`: a JSON object of the simulator's `WorldOptions`; an unreadable file, bad JSON
 * or a non-object is a {@link UsageError}.
 *
 * @example
 * const world = readWorldFile("world.json"); // e.g. { shops: 2, seed: 7 }
 */
export function readWorldFile(path: string): WorldOptions {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`--world: cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--world: ${path} is not JSON`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new UsageError("--world: expected a JSON object of WorldOptions");
  return parsed as WorldOptions;
}

/**
 * Folds a message onto one line (diagnostics are one line each) and bounds its length.
 *
 * @example
 * oneLine("bad\n  value"); // "bad value"
 */
export function oneLine(text: string): string {
  const folded = text.trim().replace(/\s*\n\s*/g, " ");
  return folded.length > 500 ? `${folded.slice(0, 497)}...` : folded;
}

/**
 * Reads `--rotation`: `off`, `realistic` or a share 0…1 of the randomizing phones that rotate
 * their MAC (the simulator's `rotation` world option); UsageError on anything else. One parser
 * for `footfall sim` and `footfall demo`.
 *
 * @example
 * rotationFlag("0.6"); // 0.6
 * rotationFlag("realistic"); // "realistic"
 */
export function rotationFlag(value: string): Rotation {
  if (value === "off" || value === "realistic") return value;
  if (!/^(0(\.\d+)?|1(\.0*)?|\.\d+)$/.test(value)) throw new UsageError(`--rotation must be off, realistic or a share from 0 to 1, got ${JSON.stringify(value)}`);
  return Number(value);
}

/**
 * `--tz ZONE`: an IANA zone name or a fixed offset, default {@link DEFAULT_TIME_ZONE} — the one
 * parser of the flag for every command, with one message.
 *
 * @throws UsageError for a zone the runtime does not know
 * @example
 * timeZoneFlag(undefined); // "Asia/Seoul"
 * timeZoneFlag("Europe/Prague"); // "Europe/Prague"
 */
export function timeZoneFlag(value: string | undefined): string {
  const timeZone = value ?? DEFAULT_TIME_ZONE;
  try {
    assertTimeZone(timeZone);
  } catch {
    throw new UsageError(`--tz: unknown time zone ${JSON.stringify(timeZone)}`);
  }
  return timeZone;
}

/**
 * Reads `--rts-unit`: how the service turns a datetime into an RTS, which the interface does not
 * publish — `ms` (the default, as in the spec's sample), `s`, `us` or `ns` — as its preset codec;
 * UsageError on anything else. One parser for `footfall signals` and `footfall analyze`.
 *
 * @example
 * rtsUnitFlag(undefined).unit; // "ms"
 * rtsUnitFlag("us").unit;      // "us"
 */
export function rtsUnitFlag(value: string | undefined): PresetRtsCodec {
  const unit = value ?? "ms";
  if (unit !== "ms" && unit !== "s" && unit !== "us" && unit !== "ns") throw new UsageError(`--rts-unit must be one of ms, s, us, ns; got ${JSON.stringify(unit)}`);
  return rtsCodecForUnit(unit);
}
