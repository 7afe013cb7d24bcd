import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Observable } from "rxjs";
import type { DeviceId } from "../analysis/AnalysisRecord.ts";
import type { Client } from "../client/Client.ts";
import { createClient } from "../client/createClient.ts";
import { scoreAgainstTruth, type AccuracyScore } from "../kernels/visits/scoreAgainstTruth.ts";
import { scorePeople, type PeopleScore, type PeopleTruth } from "../kernels/people/scorePeople.ts";
import { zoneTimeBySensor } from "../kernels/visits/ZoneOccupancy.ts";
import { htmlReport } from "../report/htmlReport.ts";
import { createWorld, defaultWorldOptions } from "../sim/createWorld.ts";
import { peopleTruth } from "../sim/truth/peopleTruth.ts";
import { startSimulator } from "../sim/service/startSimulator.ts";
import type { SimShop, World } from "../sim/world/World.ts";
import { dailyCsv } from "./dailyCsv.ts";
import { demoCalibration } from "./demoCalibration.ts";
import { doorCount } from "./doorCount.ts";
import type { DemoIo } from "./DemoIo.ts";
import { defaultDemoOptions, type DemoOptions } from "./DemoOptions.ts";
import type { DemoRun, DemoShopResult } from "./DemoShopResult.ts";
import { demoTimeline, type DemoTimeline } from "./demoTimeline.ts";
import { DemoWorldError } from "./DemoWorldError.ts";
import { LiveView } from "./LiveView.ts";
import { hoursText, localClock, localDate, localTimeOfDay, localWeekday } from "./localTime.ts";
import { reportInput } from "./reportInput.ts";
import { runShopPipeline, type ShopPipelineResult } from "./runShopPipeline.ts";
import { SalesRun } from "./SalesRun.ts";
import { sessionLines } from "./sessionLines.ts";
import { ShopLive, type ShopLiveSnapshot } from "./ShopLive.ts";
import { summaryText } from "./summaryText.ts";
import { int } from "./textFormats.ts";

/**
 * The demo (what `footfall demo` and `npm start` run): builds a simulated day of shops, serves it
 * on a free local port in live mode, and watches it as a client of the service would — every
 * shop's signals tailed through footfall's source and operators with a live view on stderr, the
 * day's sales uploaded at closing time — then prints the summary on stdout and writes
 * report.html, sessions.ndjson (devices written by `device`) and daily.csv to `o.out`.
 * Resolves to true when the whole day was read and its sales uploaded; false when it was
 * interrupted (`io.signal`) or something failed (the report still holds what was done). Throws
 * {@link DemoWorldError} for world options the simulator rejects.
 *
 * @example
 * import { Pseudonymizer } from "footfall";
 * const p = new Pseudonymizer({ key: new Uint8Array(16).fill(1) });
 * const ok = await runDemo({ ...defaultDemoOptions, shops: 1, speed: 20_000, out: "demo-report" }, io, (mac, date) => p.pseudonym(mac, date));
 */
export async function runDemo(o: DemoOptions, io: DemoIo, device: DeviceId): Promise<boolean> {
  try {
    await mkdir(o.out, { recursive: true });
  } catch (error) {
    io.stderr.write(`footfall demo: cannot create --out ${o.out}: ${(error as Error).message}\n`);
    return false;
  }
  const rotation = o.rotation ?? defaultDemoOptions.rotation ?? "realistic";
  io.stderr.write(
    `footfall demo: building a simulated day of ${o.shops} shop${o.shops === 1 ? "" : "s"} (seed ${o.seed}, MAC rotation ${rotation})…\n`,
  );
  let world: World;
  try {
    world = createWorld({ ...o.world, seed: o.seed, shops: o.shops, openingHours: o.hours, days: 1, rotation });
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) throw new DemoWorldError(error.message, { cause: error });
    throw error;
  }
  if (io.signal.aborted) {
    io.stderr.write("footfall demo: interrupted before the day started\n");
    return false;
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
    return await watchDay({ o, io, world, day, client, sim, simNow, t0, timeZone, date, device });
  } finally {
    await sim.close();
  }
}

/** The day being watched: what runDemo set up. */
interface DayContext {
  readonly o: DemoOptions;
  readonly io: DemoIo;
  readonly world: World;
  readonly day: DemoTimeline;
  readonly client: Client;
  readonly sim: { readonly baseUrl: string };
  readonly simNow: () => number;
  /** `performance.now()` when the simulated clock started. */
  readonly t0: number;
  readonly timeZone: string;
  /** The local date of the day, `YYYY-MM-DD`. */
  readonly date: string;
  /** How sessions.ndjson writes devices (a keyed pseudonym unless --raw-macs). */
  readonly device: DeviceId;
}

/** A shop as the service knows it (its id and name there), with its brand's name. */
type ServiceShop = SimShop & { readonly brand: string };

// Reads the day live, shop by shop, until it is over or interrupted; then scores it, writes the
// report and prints the summary. True when everything was read and uploaded.
async function watchDay(c: DayContext): Promise<boolean> {
  const { o, io, world, day, client, simNow, timeZone, date } = c;
  const shops = await serviceShops(client, world);
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
  const sales = new SalesRun({ world, shops, client, out: o.out, timeZone, journalScope: c.sim.baseUrl, signal: io.signal });
  const heading =
    `${shops.length} shop${shops.length === 1 ? "" : "s"} · ${localWeekday(world.startMs, timeZone)} ${date} · ${timeZone} · ` +
    `open ${hoursText(o.hours[0])}–${hoursText(o.hours[1])} · ${int(o.speed)}× · seed ${o.seed}`;
  const view = new LiveView(io, { heading, lives, day, simNow, timeZone, t0: c.t0, status: () => sales.status });
  sales.onEvent = (line) => view.say(line);
  const tick = (): void => {
    if (!sales.started && simNow() >= day.closedMs && !io.signal.aborted) sales.start(Number.POSITIVE_INFINITY);
    view.draw();
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
    view.stop();
  }
  const readS = (performance.now() - c.t0) / 1000;

  // Interrupted: the figures (visitors, sales, truth) cover the day up to the data read.
  const interrupted = io.signal.aborted;
  const snaps = lives.map((l) => l.snapshot());
  const scored = scoreDay(c, shops, results, snaps, sales, interrupted);
  const run: DemoRun = {
    date,
    timeZone,
    seed: String(o.seed),
    speed: o.speed,
    elapsedMs: performance.now() - c.t0,
    currency: "KRW",
    ...(o.minCount === undefined ? {} : { minCount: o.minCount }),
    rotation: String(o.rotation ?? defaultDemoOptions.rotation ?? "realistic"),
    partial: interrupted ? `interrupted at ${localClock(timeZone)(Math.min(...snaps.map((s) => s.lastEventMs).filter(Number.isFinite), simNow()))}` : undefined,
  };

  const written = await writeDemoFiles(o.out, scored.shops, scored.overall, run, c.device, scored.people);
  io.stdout.write(summaryText(scored.shops, scored.overall, run, scored.people, scored.calibrated));
  if (written.error !== undefined) io.stderr.write(`footfall demo: could not write the report: ${written.error}\n`);
  else io.stderr.write(`footfall demo: report in ${o.out}/: report.html (open it in a browser), sessions.ndjson, daily.csv\n`);
  io.stderr.write(
    `footfall demo: first dashboard frame ${view.firstFrameS === undefined ? "–" : `${view.firstFrameS.toFixed(1)} s`} after the process started, ` +
      `day read live in ${readS.toFixed(1)} s, ${process.uptime().toFixed(1)} s in all\n`,
  );
  const failed = scored.shops.some((r) => r.error !== undefined) || !sales.ok || written.error !== undefined;
  if (interrupted) io.stderr.write("footfall demo: interrupted; the report covers the day up to then\n");
  return !interrupted && !failed;
}

// Resolves the shops the way a client of the service does: brand list, then External Key.
async function serviceShops(client: Client, world: World): Promise<ServiceShop[]> {
  const brands = await client.listBrands();
  const shops: ServiceShop[] = [];
  for (const shop of world.shops) {
    const brand = brands.find((b) => b.id === shop.brandId);
    if (brand === undefined) throw new Error(`the service lists no brand ${shop.brandId}`);
    const found = await client.getShopByExternalKey(brand, shop.externalKey);
    shops.push({ ...shop, id: found.id, name: found.name, brand: brand.name });
  }
  return shops;
}

/** The day's results per shop and its scores against the simulator's truth. */
interface ScoredDay {
  readonly shops: DemoShopResult[];
  /** MAC-level: all shops' sessions against the truth per MAC. */
  readonly overall: AccuracyScore;
  /** People counted against people present, all shops in one score. */
  readonly people: PeopleScore;
  /** The same with people calibrated on a door count of the first two opening hours (none when the day was cut short before then). */
  readonly calibrated: PeopleScore | undefined;
}

// The shops' results beside the simulator's truth. Interrupted, both are cut at the data read:
// an interval after the cut has no data, so it is not scored.
function scoreDay(c: DayContext, shops: readonly ServiceShop[], results: readonly ShopPipelineResult[], snaps: readonly ShopLiveSnapshot[], sales: SalesRun, interrupted: boolean): ScoredDay {
  const { o, world, timeZone, date } = c;
  const cutoff = (i: number): number => (interrupted ? snaps[i]!.lastEventMs : Number.POSITIVE_INFINITY);
  // People present: the person-level truth, cut like the data when the day was interrupted. All
  // shops in one score.
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
  const calibrated = interrupted && Math.min(...snaps.map((s) => s.lastEventMs)) < countTo ? undefined : scorePeople(demoCalibration(estimates, doorCount(world, estimates.map((p) => p.shopId), countFrom, countTo), timeZone), truthCut);
  const shopResults: DemoShopResult[] = shops.map((shop, i) => {
    const r = results[i]!;
    const snap = snaps[i]!;
    const truth = world.truth(shop.id).filter((t) => t.start <= cutoff(i));
    const day = r.days.find((d) => d.label === date) ?? r.days[0];
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
      counts: day,
      hours: r.hours,
      dwell: day?.dwell,
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
  const overall = scoreAgainstTruth(
    shopResults.flatMap((r) => r.sessions),
    shopResults.flatMap((r) => r.truth),
    { timeZone },
  );
  return { shops: shopResults, overall, people: peopleOverall, calibrated };
}

// The report folder's files; an error is kept (and said) rather than thrown: the summary is
// still printed.
async function writeDemoFiles(
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
