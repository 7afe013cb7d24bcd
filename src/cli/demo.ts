import { defaultDemoOptions, type DemoOptions } from "../demo/DemoOptions.ts";
import { defaultDemoTimeline } from "../demo/demoTimeline.ts";
import { isDemoWorldError } from "../demo/DemoWorldError.ts";
import { runDemo } from "../demo/runDemo.ts";
import { EXIT_FAILED, EXIT_OK, UsageError, integerFlag, numberFlag, parseFlags, readWorldFile, rotationFlag, seedFlag, type CliIo, type Command } from "./common.ts";
import { deviceIdFromFlags, privacyFlags, privacyHelp, type PrivacyFlagValues } from "./macKey.ts";

// The demo itself is src/demo/ (runDemo); this is its command: flags, help, exit status.

/**
 * Settings of `footfall demo`, from its flags: the demo's own ({@link DemoOptions}) and how
 * sessions.ndjson writes devices.
 *
 * @example
 * const o: DemoFlags = { ...defaultDemoOptions, privacy: { "raw-macs": true } };
 */
export interface DemoFlags extends DemoOptions {
  /**
   * How devices are written in sessions.ndjson: `--mac-key-file`, `--pseudonym-rotation`,
   * `--raw-macs` (see README "Privacy"). @default {} (keyed pseudonyms, the default key)
   */
  readonly privacy?: PrivacyFlagValues;
}

const flags = {
  seed: { type: "string" },
  shops: { type: "string" },
  speed: { type: "string" },
  out: { type: "string" },
  hours: { type: "string" },
  world: { type: "string" },
  rotation: { type: "string" },
  "min-count": { type: "string" },
  ...privacyFlags,
} as const;

const help = `usage: footfall demo [--seed S] [--shops N] [--speed X] [--hours OPEN-CLOSE] [--rotation R] [--out DIR] [--world FILE]

What footfall is for, in about a minute, with no account and no network: a simulated day of
shops, watched live.

It starts the simulator inside this process on a free local port (the whole service interface,
in live mode: signals appear as simulated time reaches them), then, like a client of the service:
  - tails every shop's Wi-Fi signals at once through footfall's source and operators (decode →
    sessions → visitor / passer-by / staff → counts, dwell; proximity zones per sensor) and draws
    a live dashboard on stderr (plain progress lines when not on a terminal);
  - at closing time writes the day's point-of-sale lines to DIR/pos-transactions.csv and uploads
    them as daily totals, exactly as "footfall sales upload" does (read → aggregate per shop-day
    → resolve brand and shop → one POST per shop-day, with a journal);
  - at the end of the day prints per shop: visitors (people, not MACs: an estimate with its 90 %
    interval, the MAC-level count beside it), passers-by, capture rate, dwell of the visits
    seen whole (not a rotating phone's pieces of one) with its buckets, sales,
    conversion (receipts ÷ visitors) and amount per visitor, and how close all of it came to the
    simulator's ground truth: people counted against people present;
  - writes DIR/report.html (self-contained: charts inline, loads nothing), DIR/sessions.ndjson
    (one classified session per line) and DIR/daily.csv (one row per shop-day).

The clock starts half an hour before opening and runs at --speed until half an hour after
closing; the night after that passes ${defaultDemoTimeline.fastForward}× faster. Ctrl-C stops early and still writes
what was seen so far (a second Ctrl-C quits at once).

Flags:
  --seed S              seed of the simulated world (default ${defaultDemoOptions.seed})
  --shops N             shops in the world, 1–50 (default ${defaultDemoOptions.shops})
  --speed X             simulated seconds per real second while open (default ${defaultDemoOptions.speed}:
                        13 hours in about 52 s)
  --hours OPEN-CLOSE    opening hours, local, e.g. 10-22 or 9.5-13 (default ${defaultDemoOptions.hours[0]}-${defaultDemoOptions.hours[1]})
  --out DIR             report folder (default ${defaultDemoOptions.out}); created if missing
  --rotation R          how the phones use MAC addresses: realistic (default: most randomized
                        MACs rotate at almost every probe burst, as in real shops), off (one MAC
                        per visit) or a share 0..1 of the randomizing phones that rotate
  --world FILE          JSON WorldOptions of the simulator (visitorsPerDay, passersByPerDay,
                        wallLossDb, …); the flags above take precedence; always one day
  --min-count K         small-count suppression: in daily.csv a count of people from 1 to K-1
                        is written as "<K" (and what is computed from it left empty), in the
                        report such an hour has no bar but a "<K" label; 0 stays 0 (off)
  -h, --help            this text

${privacyHelp}

Exit status: 0 the whole day was read and its sales uploaded; 1 interrupted, or something
failed (the report still holds what was done); 2 bad usage.

Example:
  npm start                                   # = footfall demo
  footfall demo --shops 2 --speed 3000 --out /tmp/day`;

/**
 * Reads the flags of `footfall demo`; UsageError on anything malformed.
 *
 * @example
 * parseDemoFlags(["--shops", "2"]).shops; // 2
 */
export function parseDemoFlags(argv: readonly string[]): DemoFlags {
  const { values } = parseFlags(argv, flags);
  const d = defaultDemoOptions;
  const world = values.world === undefined ? {} : readWorldFile(values.world);
  const seed = seedFlag(values.seed) ?? world.seed ?? d.seed;
  const shops = values.shops === undefined ? (world.shops ?? d.shops) : numberFlag("--shops", values.shops);
  if (!Number.isInteger(shops) || shops < 1 || shops > 50) throw new UsageError(`--shops must be an integer from 1 to 50, got ${JSON.stringify(values.shops)}`);
  const speed = values.speed === undefined ? d.speed : numberFlag("--speed", values.speed);
  if (!(speed > 0) || speed > 1e7) throw new UsageError(`--speed must be a number above 0 (simulated seconds per real second), got ${JSON.stringify(values.speed)}`);
  const out = values.out ?? d.out;
  if (out.trim() === "") throw new UsageError("--out must not be empty");
  let hours = world.openingHours ?? d.hours;
  if (values.hours !== undefined) {
    const m = /^\s*(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*$/.exec(values.hours);
    const open = m === null ? NaN : Number(m[1]);
    const close = m === null ? NaN : Number(m[2]);
    if (!(open >= 0 && close <= 24 && close - open >= 0.25)) {
      throw new UsageError(`--hours must be OPEN-CLOSE in local hours, 0 ≤ OPEN < CLOSE ≤ 24, at least 15 minutes apart (e.g. 10-22), got ${JSON.stringify(values.hours)}`);
    }
    hours = [open, close];
  }
  const privacy: PrivacyFlagValues = {
    ...(values["mac-key-file"] === undefined ? {} : { "mac-key-file": values["mac-key-file"] }),
    ...(values["pseudonym-rotation"] === undefined ? {} : { "pseudonym-rotation": values["pseudonym-rotation"] }),
    ...(values["raw-macs"] === undefined ? {} : { "raw-macs": values["raw-macs"] }),
  };
  const minCount = integerFlag("--min-count", values["min-count"], 1, 1_000_000);
  // The flag, else the world file's, else realistic: the demo shows what a real shop looks like.
  const rotation = values.rotation === undefined ? (world.rotation ?? d.rotation ?? "realistic") : rotationFlag(values.rotation);
  return {
    seed,
    shops,
    speed,
    out,
    hours,
    rotation,
    world,
    ...(Object.keys(privacy).length === 0 ? {} : { privacy }),
    ...(minCount === undefined ? {} : { minCount }),
  };
}

/**
 * `footfall demo`: the live demo (what `npm start` runs).
 *
 * @example
 * const status = await command.run(["--shops", "2", "--out", "day-report"], io);
 */
export const command: Command = {
  summary: "live demo: a simulated day of shops, watched, uploaded, scored and reported (npm start)",
  help,
  // The flags alone: parseDemoFlags also reads the --world file.
  check: (argv) => void parseFlags(argv, flags),
  run: (argv, io) => runDemoCommand(parseDemoFlags(argv), io),
};

// The key is read (or generated) before the day starts: a bad key is a usage error, not a lost
// day; world options the simulator rejects are one too.
async function runDemoCommand(o: DemoFlags, io: CliIo): Promise<number> {
  const device = deviceIdFromFlags(o.privacy ?? {}, io, "demo");
  try {
    return (await runDemo(o, io, device)) ? EXIT_OK : EXIT_FAILED;
  } catch (error) {
    throw isDemoWorldError(error) ? new UsageError(error.message) : error;
  }
}
