import { mkdir, rm, writeFile } from "node:fs/promises";
import type { DeviceId } from "../analysisRecords.ts";
import { deviceIdFromFlags, privacyFlags, privacyHelp, type PrivacyFlagValues } from "./macKey.ts";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns/format";
import { set } from "date-fns/set";
import { Observable } from "rxjs";
import type { Client } from "../client/Client.ts";
import { createClient } from "../client/createClient.ts";
import { scoreAgainstTruth, type AccuracyScore } from "../kernels/scoreAgainstTruth.ts";
import { scorePeople, type PeopleScore, type PeopleTruth } from "../kernels/scorePeople.ts";
import { zoneTimeBySensor } from "../kernels/ZoneOccupancy.ts";
import { htmlReport } from "../report/htmlReport.ts";
import { receiptDelta } from "../sales/netReceipts.ts";
import { defaultJournalPath, uploadSales } from "../sales/uploadSales.ts";
import type { SalesReport } from "../sales/uploadDailySales.ts";
import { createWorld, defaultWorldOptions, type WorldOptions } from "../sim/createWorld.ts";
import type { Rotation } from "../sim/MacBehaviour.ts";
import { peopleTruth } from "../sim/peopleTruth.ts";
import { startSimulator } from "../sim/startSimulator.ts";
import type { SimShop, World } from "../sim/World.ts";
import { EXIT_FAILED, EXIT_OK, UsageError, csvCell, integerFlag, numberFlag, parseFlags, readWorldFile, rotationFlag, seedFlag, type CliIo, type Command } from "./common.ts";
import { defaultDemoTimeline, demoTimeline, type DemoTimeline } from "./demoClock.ts";
import { TerminalDashboard, plainLine, type DashboardFrame } from "./demoDashboard.ts";
import { int, moneyFormat } from "./demoFormat.ts";
import { ShopLive, runShopPipeline, type ShopPipelineResult } from "./demoPipeline.ts";
import { dailyCsv, reportInput, sessionLines, summaryText, type DemoRun, type DemoSales, type DemoShopResult } from "./demoResults.ts";
import { demoCalibration } from "./demoCalibration.ts";

/**
 * Settings of `footfall demo`, from its flags.
 *
 * @example
 * const o: DemoOptions = { seed: 1, shops: 5, speed: 900, out: "footfall-report", hours: [10, 22] };
 */
export interface DemoOptions {
  /** Seed of the world (a number when the flag is an integer). @default 1 */
  readonly seed: number | string;
  /** Shops in the world. @default 5 (the simulator's default world) */
  readonly shops: number;
  /** Simulated seconds per real second while the shops are open. @default 900 */
  readonly speed: number;
  /** Report folder. @default "footfall-report" */
  readonly out: string;
  /** Opening hours, local. @default [10, 22] */
  readonly hours: readonly [number, number];
  /** Further world options (busier or quieter shops, radio model…); one day is always simulated. @default {} */
  readonly world?: WorldOptions;
  /**
   * How the simulated phones use MAC addresses (`--rotation`): `"realistic"` (most randomized
   * MACs rotate at almost every probe burst, as published captures show: what footfall meets in
   * a real shop), `"off"` (one MAC per visit) or the share of randomizing phones that rotate.
   * @default "realistic"
   */
  readonly rotation?: Rotation;
  /**
   * How devices are written in sessions.ndjson: `--mac-key-file`, `--pseudonym-rotation`,
   * `--raw-macs` (see README "Privacy"). @default {} (keyed pseudonyms, the default key)
   */
  readonly privacy?: PrivacyFlagValues;
  /** `--min-count K`: small-count suppression in daily.csv and the report's hours (see README "Privacy"). @default 0 (off) */
  readonly minCount?: number;
}

/**
 * Defaults of {@link DemoOptions}.
 *
 * @example
 * const options: DemoOptions = { ...defaultDemoOptions, shops: 2, speed: 3000 };
 */
export const defaultDemoOptions: DemoOptions = Object.freeze({
  seed: defaultWorldOptions.seed,
  shops: defaultWorldOptions.shops,
  speed: defaultDemoTimeline.speed,
  out: "footfall-report",
  hours: defaultWorldOptions.openingHours,
  rotation: "realistic",
});

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
export function parseDemoFlags(argv: readonly string[]): DemoOptions {
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
  run: (argv, io) => runDemo(parseDemoFlags(argv), io),
};

/**
 * Runs the demo with the given options; resolves to the exit status.
 *
 * @example
 * const status = await runDemo({ ...defaultDemoOptions, shops: 1, speed: 20_000, out: "demo-report" }, io);
 */
export async function runDemo(o: DemoOptions, io: CliIo): Promise<number> {
  const started = performance.now();
  // The key is read (or generated) before the day starts: a bad key is a usage error, not a lost day.
  const device = deviceIdFromFlags(o.privacy ?? {}, io, "demo");
  try {
    await mkdir(o.out, { recursive: true });
  } catch (error) {
    io.stderr.write(`footfall demo: cannot create --out ${o.out}: ${(error as Error).message}\n`);
    return EXIT_FAILED;
  }
  const rotation = o.rotation ?? defaultDemoOptions.rotation ?? "realistic";
  io.stderr.write(
    `footfall demo: building a simulated day of ${o.shops} shop${o.shops === 1 ? "" : "s"} (seed ${o.seed}, MAC rotation ${rotation})…\n`,
  );
  let world: World;
  try {
    world = createWorld({ ...o.world, seed: o.seed, shops: o.shops, openingHours: o.hours, days: 1, rotation });
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
  if (io.signal.aborted) {
    io.stderr.write("footfall demo: interrupted before the day started\n");
    return EXIT_FAILED;
  }
  const timeZone = world.shops[0]?.timeZone ?? defaultWorldOptions.timeZone;
  const date = localDate(world.startMs, timeZone);
  const day = demoTimeline({
    dayStartMs: world.startMs,
    dayEndMs: world.endMs,
    openMs: localTimeOfDay(world.startMs, o.hours[0], timeZone),
    closeMs: localTimeOfDay(world.startMs, o.hours[1], timeZone),
    speed: o.speed,
  });

  let t0 = performance.now();
  const sim = await startSimulator({ world, speed: 1, liveStart: day.startMs, clock: () => day.simAt(performance.now() - t0) });
  t0 = performance.now();
  const simNow = (): number => sim.handler.simNow() ?? day.startMs;
  const client = createClient({ baseUrl: sim.baseUrl, signalUrl: sim.signalUrl, email: sim.email, token: sim.token, maxInFlight: o.shops + 4 });
  try {
    return await watchDay({ o, io, world, day, client, sim, simNow, t0, started, timeZone, date, device });
  } finally {
    await sim.close();
  }
}

interface DayContext {
  readonly o: DemoOptions;
  readonly io: CliIo;
  readonly world: World;
  readonly day: DemoTimeline;
  readonly client: Client;
  readonly sim: { readonly baseUrl: string };
  readonly simNow: () => number;
  readonly t0: number;
  readonly started: number;
  readonly timeZone: string;
  readonly date: string;
  /** How sessions.ndjson writes devices (a keyed pseudonym unless --raw-macs). */
  readonly device: DeviceId;
}

async function watchDay(c: DayContext): Promise<number> {
  const { o, io, world, day, client, simNow, timeZone, date } = c;
  // Resolve the shops the way a client of the service does: brand list, then External Key.
  const brands = await client.listBrands();
  const shops: (SimShop & { readonly brand: string })[] = [];
  for (const shop of world.shops) {
    const brand = brands.find((b) => b.id === shop.brandId);
    if (brand === undefined) throw new Error(`the service lists no brand ${shop.brandId}`);
    const found = await client.getShopByExternalKey(brand, shop.externalKey);
    shops.push({ ...shop, id: found.id, name: found.name, brand: brand.name });
  }

  const lives = shops.map((s) => new ShopLive(s, day.endMs));
  const stop$ = new Observable<void>((subscriber) => {
    const stop = (): void => subscriber.next();
    if (io.signal.aborted) stop();
    io.signal.addEventListener("abort", stop, { once: true });
    return () => io.signal.removeEventListener("abort", stop);
  });
  const pipelines = lives.map((live) =>
    runShopPipeline({ client, live, since: world.startMs, simNow, stop$, timeZone, classify: { openingHours: o.hours } }),
  );

  // Sales go up at closing time, through the same code as `footfall sales upload`.
  const sales = new SalesRun(c, shops);
  const clockText = clockFormat(timeZone);
  const heading =
    `${shops.length} shop${shops.length === 1 ? "" : "s"} · ${weekday(world.startMs, timeZone)} ${date} · ${timeZone} · ` +
    `open ${hoursText(o.hours[0])}–${hoursText(o.hours[1])} · ${int(o.speed)}× · seed ${o.seed}`;
  const frame = (): DashboardFrame => {
    const now = simNow();
    const snaps = lives.map((l) => l.snapshot());
    const reading = snaps.filter((s) => !s.done && Number.isFinite(s.lastEventMs));
    // The clock runs on past the end of the day; no data comes after it.
    const lagMs = reading.length === 0 ? 0 : Math.min(now, day.endMs) - Math.min(...reading.map((s) => s.lastEventMs));
    return {
      heading,
      clock: now >= day.endMs ? "24:00" : clockText(now),
      fraction: day.fractionAt(now),
      elapsedMs: performance.now() - c.t0,
      shops: snaps,
      status: sales.status,
      lagMs,
    };
  };
  const tty = io.stderr.isTTY === true && io.stdout.isTTY === true;
  const dash = tty ? new TerminalDashboard(io.stderr, shops.length) : undefined;
  const say = (line: string): void => (dash === undefined ? void io.stderr.write(`${line}\n`) : dash.log(line));
  sales.onEvent = say;
  let firstFrameS: number | undefined;
  let lastHour = -1;
  let lastLine = 0;
  const tick = (): void => {
    const now = simNow();
    if (!sales.started && now >= day.closedMs && !io.signal.aborted) sales.start(Number.POSITIVE_INFINITY);
    const f = frame();
    if (dash !== undefined) dash.update(f);
    else {
      // Plain mode: one line per simulated hour (the latest, if several passed at once), and
      // one every 5 s while reading catches up after the clock has stopped moving.
      const hour = new TZDate(Math.min(now, day.endMs), timeZone).getHours();
      const real = performance.now();
      if (hour !== lastHour || real - lastLine >= 5_000) {
        lastHour = hour;
        lastLine = real;
        io.stderr.write(`${plainLine(f)}\n`);
      }
    }
    firstFrameS ??= process.uptime();
  };
  tick();
  const timer = setInterval(tick, 250);
  let results: ShopPipelineResult[];
  try {
    results = await Promise.all(pipelines);
    if (!sales.started && !io.signal.aborted) sales.start(Number.POSITIVE_INFINITY);
    await sales.done;
    tick();
  } finally {
    clearInterval(timer);
    dash?.stop();
  }
  const readS = (performance.now() - c.t0) / 1000;

  // Interrupted: the figures (visitors, sales, truth) cover the day up to the data read.
  const interrupted = io.signal.aborted;
  const snaps = lives.map((l) => l.snapshot());
  const cutoff = (i: number): number => (interrupted ? snaps[i]!.lastEventMs : Number.POSITIVE_INFINITY);
  // People present: the person-level truth, cut like the data when the day was interrupted (an
  // interval after the cut has no data, so it is not scored). All shops in one score.
  const people = peopleTruth(world);
  const cutOf = new Map(shops.map((shop, i) => [shop.id, cutoff(i)]));
  const untilOf = (shopId: number): number => cutOf.get(shopId) ?? Number.POSITIVE_INFINITY;
  // Dwells are of the visits counted (started by the cut); an interrupted day's last visits are
  // cut short in the data but not in the truth, so its dwell error leans short.
  const truthCut: PeopleTruth = {
    visitors: (id, s, e) => people.visitors(id, s, Math.min(e, untilOf(id) + 1)),
    inside: people.inside,
    dwells: (id, s, e) => people.dwells(id, s, Math.min(e, untilOf(id) + 1)),
  };
  const estimates = shops.flatMap((_, i) =>
    results[i]!.people.filter((p) => p.label === date).map((p) => (interrupted ? { ...p, occupancy: p.occupancy.filter((q) => q.end <= untilOf(p.shopId)) } : p)),
  );
  const peopleOverall: PeopleScore = scorePeople(estimates, truthCut);
  // People as a site would calibrate them: a door counter's first two opening hours, beside the
  // estimate as installed and the people present (not when the day was cut short before then).
  const countFrom = localTimeOfDay(world.startMs, o.hours[0], timeZone);
  const countTo = countFrom + 2 * 3_600_000;
  const calibratedPeople = interrupted && Math.min(...snaps.map((s) => s.lastEventMs)) < countTo ? undefined : scorePeople(demoCalibration(world, estimates, countFrom, countTo, timeZone), truthCut);
  const shopResults: DemoShopResult[] = shops.map((shop, i) => {
    const r = results[i]!;
    const snap = snaps[i]!;
    const truth = world.truth(shop.id).filter((t) => t.start <= cutoff(i));
    return {
      id: shop.id,
      name: shop.name,
      brand: shop.brand,
      externalKey: shop.externalKey,
      sensors: shop.sensors,
      timeZone,
      date,
      signals: snap.signals,
      invalid: snap.invalid,
      error: snap.error,
      counts: r.day.find((d) => d.label === date) ?? r.day[0],
      hours: r.hours,
      dwell: r.dwell.find((d) => d.label === date) ?? r.dwell[0],
      sessions: r.sessions,
      // The visitors' own sessions: a visitor's earlier walk past the window is not visitor time.
      zones: zoneTimeBySensor(r.sessions.filter((s) => s.kind === "visitor"), { sensors: shop.sensors }),
      sales: sales.forShop(shop, cutoff(i)),
      truth,
      score: scoreAgainstTruth(r.sessions, truth, { timeZone }),
      // Cut like the truth it is scored on, so its occupancy lines up with peopleScore.trueInside.
      people: estimates.find((p) => p.shopId === shop.id),
      peopleScore: peopleOverall.days.find((d) => d.shopId === shop.id),
    };
  });
  const overall: AccuracyScore = scoreAgainstTruth(
    shopResults.flatMap((r) => r.sessions),
    shopResults.flatMap((r) => r.truth),
    { timeZone },
  );
  const run: DemoRun = {
    date,
    timeZone,
    seed: String(o.seed),
    speed: o.speed,
    elapsedMs: performance.now() - c.t0,
    currency: "KRW",
    ...(o.minCount === undefined ? {} : { minCount: o.minCount }),
    rotation: String(o.rotation ?? defaultDemoOptions.rotation ?? "realistic"),
    partial: interrupted ? `interrupted at ${clockText(Math.min(...snaps.map((s) => s.lastEventMs).filter(Number.isFinite), simNow()))}` : undefined,
  };

  const written = await writeReport(o.out, shopResults, overall, run, c.device, peopleOverall);
  io.stdout.write(summaryText(shopResults, overall, run, peopleOverall, calibratedPeople));
  if (written.error !== undefined) io.stderr.write(`footfall demo: could not write the report: ${written.error}\n`);
  else io.stderr.write(`footfall demo: report in ${o.out}/: report.html (open it in a browser), sessions.ndjson, daily.csv\n`);
  io.stderr.write(
    `footfall demo: first dashboard frame ${firstFrameS === undefined ? "–" : `${firstFrameS.toFixed(1)} s`} after the process started, ` +
      `day read live in ${readS.toFixed(1)} s, ${process.uptime().toFixed(1)} s in all\n`,
  );
  const failed = shopResults.some((r) => r.error !== undefined) || !sales.ok || written.error !== undefined;
  if (interrupted) io.stderr.write("footfall demo: interrupted; the report covers the day up to then\n");
  return interrupted || failed ? EXIT_FAILED : EXIT_OK;
}

async function writeReport(
  out: string,
  results: readonly DemoShopResult[],
  overall: AccuracyScore,
  run: DemoRun,
  device: DeviceId,
  people: PeopleScore,
): Promise<{ error?: string }> {
  try {
    let sessions = "";
    for (const line of sessionLines(results, device)) sessions += line;
    await writeFile(join(out, "sessions.ndjson"), sessions, "utf8");
    await writeFile(join(out, "daily.csv"), dailyCsv(results, run.minCount ?? 0), "utf8");
    await writeFile(join(out, "report.html"), htmlReport(reportInput(results, overall, run, people)), "utf8");
    return {};
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The day's point-of-sale lines: written as a client company's CSV export and uploaded through
 * `uploadSales` (what `footfall sales upload FILE` runs), once, at closing time.
 */
class SalesRun {
  status = "sales: the day's takings go up at closing time";
  started = false;
  ok = true;
  done: Promise<void> = Promise.resolve();
  onEvent: (line: string) => void = () => {};
  #report: SalesReport | undefined;
  #uploadedCutoff = Number.NEGATIVE_INFINITY;
  readonly #c: DayContext;
  readonly #lines: { readonly shop: number; readonly ms: number; readonly hour: number; readonly csv: string; readonly amount: number; readonly quantity: number }[] = [];

  constructor(c: DayContext, shops: readonly SimShop[]) {
    this.#c = c;
    for (const shop of shops) {
      for (const t of c.world.transactions(shop.id)) {
        this.#lines.push({
          shop: shop.id,
          ms: Date.parse(t.timestamp),
          // The timestamp carries the shop's own offset, so its hour is the local hour.
          hour: Number(t.timestamp.slice(11, 13)),
          csv: [t.brand, t.external_key, t.timestamp, String(t.amount), String(t.quantity)].map(csvCell).join(","),
          amount: t.amount,
          quantity: t.quantity,
        });
      }
    }
  }

  start(cutoffMs: number): void {
    this.started = true;
    this.done = this.#upload(cutoffMs).catch((error: unknown) => {
      this.ok = false;
      const why = this.#c.io.signal.aborted ? "interrupted" : error instanceof Error ? error.message : String(error);
      this.status = `sales: not uploaded (${why})`;
      this.onEvent(`footfall demo: ${this.status}`);
    });
  }

  async #upload(cutoffMs: number): Promise<void> {
    const { o, io, client, sim, timeZone } = this.#c;
    const lines = this.#lines.filter((l) => l.ms <= cutoffMs);
    const file = join(o.out, "pos-transactions.csv");
    await writeFile(file, `brand,external_key,timestamp,amount,quantity\n${lines.map((l) => `${l.csv}\n`).join("")}`, "utf8");
    // Each demo serves a new, empty simulator: a journal of an earlier run describes a service
    // that is gone, so it is started afresh rather than left to grow by one service per run.
    await rm(defaultJournalPath(file), { force: true });
    this.status = `sales: uploading ${int(lines.length)} till lines as daily totals…`;
    const report = await uploadSales(client, file, { tz: timeZone, journalScope: sim.baseUrl, signal: io.signal });
    this.#report = report;
    this.#uploadedCutoff = cutoffMs;
    this.ok = report.ok;
    const money = moneyFormat("KRW");
    const total = report.days.reduce((n, d) => n + (d.amount ?? 0), 0);
    const c = report.counts;
    this.status =
      `sales: ${c.uploaded + c.unchanged} shop-day${c.uploaded + c.unchanged === 1 ? "" : "s"} uploaded (${money.format(total)}, ${int(lines.length)} till lines → one record per shop-day)` +
      `${c.rejected + c.failed > 0 ? `, ${c.rejected + c.failed} not uploaded` : ""}`;
    this.onEvent(`footfall demo: ${this.status}`);
  }

  /** The shop's sales of the day (as uploaded), or the till lines up to `cutoffMs` when nothing went up. */
  forShop(shop: SimShop, cutoffMs: number): DemoSales {
    const uploaded = this.#report !== undefined;
    const limit = uploaded ? this.#uploadedCutoff : cutoffMs;
    const byHour = new Array<number>(24).fill(0);
    let receipts = 0;
    let amount = 0;
    let quantity = 0;
    for (const l of this.#lines) {
      if (l.shop !== shop.id || l.ms > limit) continue;
      // The library's refund rule (as in notebook 03): a refund line cancels a receipt.
      const sign = receiptDelta(l.amount);
      receipts += sign;
      byHour[l.hour]! += sign;
      amount += l.amount;
      quantity += l.quantity;
    }
    const row = this.#report?.days.find((d) => d.shopId === shop.id || d.externalKey === shop.externalKey);
    const status = !uploaded
      ? `not uploaded (${this.#c.io.signal.aborted ? "interrupted before closing" : "upload failed"})`
      : row === undefined
        ? "no sales"
        : `${row.status}${row.reason ? `: ${row.reason}` : ""}`;
    return {
      receipts,
      receiptsByHour: byHour,
      amount: row?.amount ?? amount,
      quantity: row?.quantity ?? quantity,
      currency: row?.currency ?? "KRW",
      status,
    };
  }
}

// Calendar work in the shop's zone goes through date-fns; none of it runs per record.
function clockFormat(timeZone: string): (ms: number) => string {
  return (ms) => format(new TZDate(ms, timeZone), "HH:mm");
}

function localDate(ms: number, timeZone: string): string {
  return format(new TZDate(ms, timeZone), "yyyy-MM-dd");
}

function weekday(ms: number, timeZone: string): string {
  return format(new TZDate(ms, timeZone), "EEE");
}

// The instant of a local wall-clock time (hours, fractions allowed: 9.5 = 09:30; 24 = the next
// midnight) on the day starting at `dayStartMs`: wall-clock, so right on a DST day too.
function localTimeOfDay(dayStartMs: number, hours: number, timeZone: string): number {
  const minutes = Math.round(hours * 60);
  return set(new TZDate(dayStartMs, timeZone), { hours: Math.floor(minutes / 60), minutes: minutes % 60, seconds: 0, milliseconds: 0 }).getTime();
}

function hoursText(h: number): string {
  const m = Math.round((h % 1) * 60);
  return `${String(Math.floor(h)).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}
