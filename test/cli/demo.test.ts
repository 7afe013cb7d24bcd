import { mkdtemp, readFile, rm } from "node:fs/promises";
import { fakeIo } from "./fakeIo.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Signal } from "../../src/codec/Signal.ts";
import { UsageError } from "../../src/cli/common.ts";
import { command, defaultDemoOptions, parseDemoFlags } from "../../src/cli/demo.ts";
import { demoTimeline } from "../../src/cli/demoClock.ts";
import { TerminalDashboard, dashboardLines, dashboardTable, plainLine, type DashboardFrame } from "../../src/cli/demoDashboard.ts";
import { alignTable, int, minutes } from "../../src/cli/demoFormat.ts";
import { dailyCsv, summaryText, type DemoRun, type DemoShopResult } from "../../src/cli/demoResults.ts";
import { DWELL_BUCKETS, dwellStats } from "../../src/kernels/dwellStats.ts";
import { scoreAgainstTruth } from "../../src/kernels/scoreAgainstTruth.ts";
import { scorePeople } from "../../src/kernels/scorePeople.ts";
import { peopleTruth } from "../../src/sim/peopleTruth.ts";
import { ShopLive, type ShopLiveSnapshot } from "../../src/cli/demoPipeline.ts";
import type { LiveDay, LiveOccupancyInterval } from "../../src/kernels/LiveOccupancy.ts";
import { csvCell } from "../../src/cli/common.ts";
import { main } from "../../src/cli/main.ts";
import { analyze } from "../../src/analyze.ts";
import type { ProximitySlice, SessionProximity } from "../../src/kernels/SessionProximity.ts";
import type { ClassifiedSession } from "../../src/kernels/VisitClassifier.ts";
import { zoneTimeBySensor } from "../../src/kernels/ZoneOccupancy.ts";
import { universalPersonWeight } from "../../src/kernels/universalPersonWeight.ts";
import type { SignalPage } from "../../src/source/SignalPage.ts";
import { expectSelfContained } from "../report/reportFixture.ts";
import { createWorld } from "../../src/sim/createWorld.ts";

const snap = (name: string, n: number, extra: Partial<ShopLiveSnapshot> = {}): ShopLiveSnapshot => ({
  shopId: 100 + n,
  name,
  signals: 10_000 * n,
  invalid: 0,
  lastEventMs: 0,
  inRange: 10 * n,
  visitors: 100 * n,
  passersBy: 1000 * n,
  medianDwellMs: 60_000 * (10 + n),
  zones: { immediate: n, near: 2 * n, far: 3 * n },
  people: { visitors: 80 * n, low: 70 * n, high: 90 * n },
  inside: { inside: 4.5 * n, low: 3 * n, high: 6.5 * n },
  done: false,
  ...extra,
});

const frame = (shops: readonly ShopLiveSnapshot[]): DashboardFrame => ({
  heading: "2 shops · Mon 2026-11-16 · Asia/Seoul",
  clock: "14:05",
  fraction: 0.5,
  elapsedMs: 31_000,
  shops,
  status: "sales: the day's takings go up at closing time",
});

describe("footfall demo flags", () => {
  it("has defaults that make a one-minute day of the default world, with the phones' MACs rotating as in real shops", () => {
    const o = parseDemoFlags([]);
    expect(o).toEqual({ ...defaultDemoOptions, world: {} });
    expect(o.rotation).toBe("realistic");
    const t = demoTimeline({ dayStartMs: 0, dayEndMs: 24 * 3_600_000, openMs: o.hours[0] * 3_600_000, closeMs: o.hours[1] * 3_600_000, speed: o.speed });
    expect(t.realDurationMs).toBeGreaterThan(45_000);
    expect(t.realDurationMs).toBeLessThan(75_000);
  });

  it("reads every flag", () => {
    expect(parseDemoFlags(["--seed", "7", "--shops", "2", "--speed", "3000", "--hours", "9.5-13", "--out", "x", "--rotation", "off"])).toEqual({
      seed: 7,
      shops: 2,
      speed: 3000,
      hours: [9.5, 13],
      out: "x",
      rotation: "off",
      world: {},
    });
    expect(parseDemoFlags(["--seed", "demo"]).seed).toBe("demo");
    expect(parseDemoFlags(["--rotation", "0.6"]).rotation).toBe(0.6);
  });

  it("takes the world file's rotation when the flag is not given, and the flag over it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "footfall-demo-flags-"));
    try {
      const world = join(dir, "world.json");
      await (await import("node:fs/promises")).writeFile(world, JSON.stringify({ rotation: "off" }));
      expect(parseDemoFlags(["--world", world]).rotation).toBe("off");
      expect(parseDemoFlags(["--world", world, "--rotation", "realistic"]).rotation).toBe("realistic");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [["--shops", "0"], /--shops must be an integer from 1 to 50/],
    [["--shops", "two"], /--shops must be a number/],
    [["--speed=-5"], /--speed must be a number above 0/],
    [["--speed", "-5"], /--speed.*ambiguous/],
    [["--hours", "22-10"], /--hours must be OPEN-CLOSE/],
    [["--hours", "10"], /--hours must be OPEN-CLOSE/],
    [["--out", ""], /--out must not be empty/],
    [["--world", "/nonexistent/world.json"], /--world: cannot read/],
    [["--rotation", "always"], /--rotation must be off, realistic or a share from 0 to 1/],
    [["--bogus"], /bogus/],
    [["stray"], /stray/],
  ])("bad usage %j → exit 2 with one line", async (argv, message) => {
    expect(() => parseDemoFlags(argv)).toThrow(UsageError);
    const { io, text } = fakeIo();
    expect(await main(["demo", ...argv], io)).toBe(2);
    expect(text.err).toMatch(message);
    expect(text.err.trim().split("\n")).toHaveLength(1);
    expect(text.out).toBe("");
  });

  it("has full help", async () => {
    const { io, text } = fakeIo();
    expect(await main(["demo", "--help"], io)).toBe(0);
    for (const flag of ["--seed", "--shops", "--speed", "--hours", "--rotation", "--out", "--world", "report.html", "sessions.ndjson", "daily.csv", "Exit status"]) expect(text.out).toContain(flag);
    expect(command.summary).not.toMatch(/not built/);
  });
});

describe("demoTimeline", () => {
  const H = 3_600_000;
  const t = demoTimeline({ dayStartMs: 0, dayEndMs: 24 * H, openMs: 10 * H, closeMs: 22 * H, speed: 1000, marginMs: H / 2, fastForward: 10 });

  it("starts half an hour before opening, runs at speed until half an hour after closing, then ten times faster", () => {
    expect(t.startMs).toBe(9.5 * H);
    expect(t.closedMs).toBe(22.5 * H);
    expect(t.simAt(0)).toBe(9.5 * H);
    expect(t.simAt(1000)).toBe(9.5 * H + 1000 * 1000);
    const open = (13 * H) / 1000;
    expect(t.simAt(open)).toBe(22.5 * H);
    expect(t.simAt(open + 100)).toBe(22.5 * H + 100 * 10_000);
    expect(t.realDurationMs).toBe(open + (1.5 * H) / 10_000);
    expect(t.simAt(t.realDurationMs)).toBeCloseTo(24 * H, 6);
  });

  it("gives the share of the run done at a simulated time", () => {
    expect(t.fractionAt(9.5 * H)).toBe(0);
    expect(t.fractionAt(24 * H)).toBe(1);
    expect(t.fractionAt(t.simAt(t.realDurationMs / 2))).toBeCloseTo(0.5, 9);
    expect(t.fractionAt(0)).toBe(0);
  });

  it("rejects inconsistent times", () => {
    expect(() => demoTimeline({ dayStartMs: 0, dayEndMs: 24 * H, openMs: 22 * H, closeMs: 10 * H })).toThrow(RangeError);
    expect(() => demoTimeline({ dayStartMs: 0, dayEndMs: 24 * H, openMs: 10 * H, closeMs: 22 * H, speed: 0 })).toThrow(RangeError);
  });
});

describe("dashboard rendering (made-up numbers)", () => {
  const shops = [snap("Cafe Mori Gangnam", 1), snap("Hanbit Apparel Seongsu", 2, { done: true })];

  it("draws one aligned row per shop and a total row", () => {
    const lines = dashboardTable(shops).trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/shop\s+in range\s+inside \[90 %\]\s+people \[90 %\]\s+MAC visitors\s+passers-by\s+median dwell\s+zones imm\/near\/far\s+signals$/);
    // People: the estimates with their intervals, per shop (inside to a tenth below ten).
    expect(lines[1]).toContain("4.5 [3.0–6.5]");
    expect(lines[1]).toContain("80 [70–90]");
    expect(lines[1]).toContain("Cafe Mori Gangnam");
    expect(lines[2]).toMatch(/^✓ Hanbit Apparel Seongsu/);
    // Numbers are right-aligned: every row ends at the same column.
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    const total = lines[3]!;
    expect(total).toContain("all shops");
    expect(total).toContain(int(100 + 200)); // MAC visitors
    // People of all shops: the sums of the estimates, with no interval (the shops' intervals do not add up to one).
    expect(total).toContain(int(80 + 160));
    expect(total).toContain(`  ${(4.5 + 9).toFixed(0)}  `);
    expect(total).not.toMatch(/\[\d/);
    expect(total).toContain(int(1000 + 2000)); // passers-by
    expect(total).toContain(`${1 + 2} / ${2 + 4} / ${3 + 6}`);
    expect(total).toContain(int(10_000 + 20_000));
    // Dwell of all shops: the shops' medians weighted by visitors.
    expect(total).toContain(`${((11 * 100 + 12 * 200) / 300).toFixed(1)} min`);
  });

  it("fits 80 columns on a narrow terminal", () => {
    const lines = dashboardLines(frame(shops), 80);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/people \[90 %\]\s+MACs\s+passers-by\s+dwell\s+zones i\/n\/f$/);
    expect(lines[1]).toContain("Cafe Mori Gangnam");
  });

  it("adds the sales line and a hint; a lag shows only when large", () => {
    const lines = dashboardLines(frame(shops));
    expect(lines.at(-2)).toContain("sales: the day's takings go up");
    expect(lines.at(-1)).toContain("Ctrl-C");
    expect(dashboardLines({ ...frame(shops), lagMs: 60_000 }).join("\n")).not.toContain("behind");
    expect(dashboardLines({ ...frame(shops), lagMs: 20 * 60_000 }).join("\n")).toContain("reading 20 min behind the clock");
  });

  it("has a one-line form for pipes", () => {
    const line = plainLine(frame(shops));
    expect(line).toBe(
      `footfall demo: 14:05 (50 %) in range 30 · inside ≈ 14 · people ≈ 240 · MAC visitors 300 · passers-by 3,000 · median dwell ${((11 * 100 + 12 * 200) / 300).toFixed(1)} min · zones 3/6/9 · signals 30,000`,
    );
    // Before every shop has an estimate, no sum of people is shown.
    const { people: _none, ...unestimated } = snap("B", 2);
    expect(plainLine(frame([snap("A", 1), unestimated]))).not.toContain("people");
  });

  it("shows dashes before anything is known", () => {
    const line = plainLine(frame([snap("Empty", 0, { medianDwellMs: Number.NaN })]));
    expect(line).toContain("median dwell –");
  });

  it("redraws in place on a terminal and gives the cursor back", async () => {
    const { io, text } = fakeIo({}, { tty: true });
    const dash = new TerminalDashboard(io.stderr, shops.length);
    dash.update(frame(shops));
    dash.log("footfall demo: sales uploaded");
    await new Promise((r) => setTimeout(r, 300));
    dash.update({ ...frame(shops), clock: "15:00", fraction: 0.6 });
    dash.stop();
    expect(text.err).toContain("\x1b[?25l"); // cursor hidden while drawing
    expect(text.err).toContain("\x1b[?25h"); // and shown again
    expect(text.err).toContain("Cafe Mori Gangnam");
    expect(text.err).toContain("15:00");
    expect(text.err).toContain("footfall demo: sales uploaded");
    expect(text.out).toBe("");
  });
});

describe("ShopLive", () => {
  const sig = (device: string, time: number, rssi = -60): Signal => ({
    shopId: 101,
    rts: "",
    time,
    device,
    rssi,
    sensor: "s1",
    local: false,
    randomized: false,
    vendor: undefined,
  });
  const slice = (device: string, start: number, sensor: string, zone: ProximitySlice["zone"]): ProximitySlice =>
    ({ type: "proximitySlice", shopId: 101, device, start, end: start + 10_000, sensor, zone }) as ProximitySlice;

  it("counts devices in range, and shows the latest live interval: people inside, the day so far, the dwell of the visits seen whole", () => {
    const live = new ShopLive({ id: 101, name: "Gangnam", sensors: ["s1", "s2"] }, 86_400_000);
    live.onSignal(sig("a", 1_000_000));
    live.onSignal(sig("b", 1_100_000));
    live.onSignal(sig("c", 1_000_000 + 200_000)); // newest: a is 200 s old, b 100 s
    expect(live.snapshot().people).toBeUndefined();
    expect(live.snapshot().inside).toBeUndefined();
    const mac = dwellStats([600_000, 900_000]);
    const today = { visitors: 14.2, visitorsLow: 11, visitorsHigh: 19, macVisitors: 9, macPassersBy: 120, macDwell: mac, dwell: dwellStats([1_200_000]) } as LiveDay;
    live.onOccupancy({ inside: 3.5, insideLow: 2.1, insideHigh: 5.2, today } as LiveOccupancyInterval);
    const s = live.snapshot();
    expect(s.signals).toBe(3);
    expect(s.inRange).toBe(2); // b and c within two minutes of the newest signal
    expect([s.visitors, s.passersBy]).toEqual([9, 120]);
    expect(s.people).toEqual({ visitors: 14.2, low: 11, high: 19 });
    expect(s.inside).toEqual({ inside: 3.5, low: 2.1, high: 5.2 });
    // The summary's rule (shopDayDwell): with a people estimate, the identity-known visits' dwell.
    expect(s.medianDwellMs).toBe(1_200_000);
    // Without a burst rate (people unknown): no people figure, and the MAC-level dwell.
    live.onOccupancy({ inside: Number.NaN, insideLow: 0, insideHigh: Number.POSITIVE_INFINITY, today: { ...today, visitors: Number.NaN } } as LiveOccupancyInterval);
    expect(live.snapshot().people).toBeUndefined();
    expect(live.snapshot().inside).toBeUndefined();
    expect(live.snapshot().medianDwellMs).toBe(mac.medianMs);
    expect(live.snapshot().done).toBe(false);
  });

  it("shows what the liveOccupancy operator says as the day goes on: without rotation, people so far close to the devices that visited, as persons", async () => {
    const world = createWorld({ ...SMALL_WORLD, seed: 3, shops: 1, openingHours: [10, 13], rotation: "off" });
    const shop = world.shops[0]!;
    const { liveOccupancy, days } = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, proximity: false, quality: false, liveOccupancy: true, classify: { openingHours: [10, 13] } });
    const live = new ShopLive({ id: shop.id, name: shop.name, sensors: shop.sensors }, world.endMs);
    const noon = liveOccupancy.find((o) => o.end > world.startMs + 3 * 3_600_000 && o.inside > 0)!;
    live.onOccupancy(noon);
    expect(live.snapshot().inside?.inside).toBe(noon.inside);
    for (const o of liveOccupancy) live.onOccupancy(o);
    live.onEnd();
    const snapshot = live.snapshot();
    const people = snapshot.people!;
    // An estimate always, with finite bounds around it (the yardstick from real phones).
    expect([people.visitors, people.low, people.high].every(Number.isFinite)).toBe(true);
    expect(people.low).toBeLessThanOrEqual(people.visitors);
    expect(people.visitors).toBeLessThanOrEqual(people.high);
    // The day so far at the end is the day's MAC-level count.
    expect(Math.abs(snapshot.visitors - days[0]!.visitors)).toBeLessThanOrEqual(Math.max(2, 0.05 * days[0]!.visitors));
    // One MAC per visit, but not every MAC is a person: a randomized MAC that held is a phone (one
    // person), a universal MAC one when a phone maker's on a shopper's stay, else the yardstick's
    // share of one (universalPersonWeight). The world says which devices visited with which MAC.
    const share = liveOccupancy.at(-1)!.today.yardstick.universalPersonShare;
    const devices = new Map<string, { universal: boolean; person: number }>();
    for (const v of world.visits(shop.id)) {
      if (v.kind !== "visitor" || v.records === 0) continue;
      const mac = v.macs.find((m) => m.records > 0)!.mac;
      const universal = v.macClass === "universal";
      devices.set(mac, { universal, person: universal ? universalPersonWeight(mac, v.end - v.start, share) : 1 });
    }
    const universalDevices = [...devices.values()].filter((d) => d.universal).length;
    // Both kinds visited: the check covers the stable randomized MACs and the universal ones.
    expect(universalDevices).toBeGreaterThan(0);
    expect(universalDevices).toBeLessThan(devices.size);
    // Persons per visiting device, from the world; the MAC-level count so far times it is the
    // people expected so far (all of them when every universal visitor is a phone on a short stay).
    let persons = 0;
    for (const d of devices.values()) persons += d.person;
    const expected = snapshot.visitors * (persons / devices.size);
    expect(Math.abs(people.visitors - expected)).toBeLessThanOrEqual(Math.max(3, 0.1 * expected));
  });

  it("is done with the day at the second caught-up page in a row delivered past its end", () => {
    const live = new ShopLive({ id: 101, name: "Gangnam", sensors: ["s1"] }, 1_000);
    const page = (caughtUp: boolean) => ({ caughtUp }) as SignalPage;
    live.onPage(page(true), 500); // caught up, but before the end
    live.onPage(page(true), 1_200); // its request may have been served before the end
    expect(live.done).toBe(false);
    live.onPage(page(false), 1_300); // a full page: the next one may have been requested ahead
    live.onPage(page(true), 1_400);
    expect(live.done).toBe(false);
    live.onPage(page(true), 1_500); // requested after a caught-up page delivered past the end
    expect(live.done).toBe(true);
  });

  it("shows the zones now from the latest slices (one device counts once, in its latest zone)", () => {
    const live = new ShopLive({ id: 101, name: "Gangnam", sensors: ["s1", "s2"] }, 86_400_000);
    live.onSlice(slice("a", 0, "s1", "near"));
    live.onSlice(slice("a", 40_000, "s2", "immediate"));
    live.onSlice(slice("b", 0, "s1", "far"));
    live.onSignal(sig("a", 70_000));
    expect(live.snapshot().zones).toEqual({ immediate: 1, near: 0, far: 1 });
    // More than three minutes (the occupancy's window) after a's latest slice ended: nobody is counted.
    live.onSignal(sig("c", 50_000 + 180_001));
    expect(live.snapshot().zones).toEqual({ immediate: 0, near: 0, far: 0 });
    live.onEnd();
    expect(live.snapshot().done).toBe(true);
  });

  it("takes the report's zone time from the visitors' own sessions (zoneTimeBySensor), not from other sessions of the same devices", () => {
    const prox = (zoneMsBySensor: SessionProximity["zoneMsBySensor"]) => ({ zoneMsBySensor }) as SessionProximity;
    const classified = (device: string, kind: ClassifiedSession["kind"], proximity: SessionProximity) => ({ shopId: 101, device, kind, proximity }) as ClassifiedSession;
    const sessions = [
      // a walked past the window first (a passer-by session), then came in twice.
      classified("a", "passerby", prox([{ sensor: "s1", immediate: 0, near: 0, far: 60_000 }])),
      classified("a", "visitor", prox([{ sensor: "s1", immediate: 0, near: 40_000, far: 0 }, { sensor: "s2", immediate: 25_000, near: 0, far: 0 }])),
      classified("b", "passerby", prox([{ sensor: "s1", immediate: 0, near: 0, far: 5_000 }])),
      classified("a", "visitor", prox([{ sensor: "s2", immediate: 5_000, near: 0, far: 0 }])),
    ];
    // What demo.ts gives the report: the visitors' sessions, the shop's sensor order.
    expect(zoneTimeBySensor(sessions.filter((s) => s.kind === "visitor"), { sensors: ["s2", "s1"] })).toEqual([
      { sensor: "s2", zone: "immediate", ms: 30_000 },
      { sensor: "s1", zone: "near", ms: 40_000 },
    ]);
    expect(zoneTimeBySensor(sessions)).toContainEqual({ sensor: "s1", zone: "far", ms: 65_000 });
  });
});

describe("demo text helpers", () => {
  it("aligns tables per column and cuts long cells", () => {
    expect(alignTable(["shop", "n"], [["Gangnam", "1,204"], ["Jamsil", "7"]], [false, true])).toBe("shop         n\nGangnam  1,204\nJamsil       7\n");
    expect(alignTable(["name"], [["abcdefgh"]], [false], [5])).toBe("name\nabcd…\n");
  });

  it("quotes CSV cells only when needed", () => {
    expect(csvCell("Cafe Mori")).toBe("Cafe Mori");
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
  });
});

const SMALL_WORLD = { visitorsPerDay: 60, passersByPerDay: 400, staffPerShop: 2, stationaryPerShop: 1 };

describe("demo tables: dwell of people, scored against the people's visits", () => {
  // A small rotating world analysed shop by shop, made into the demo's results as demo.ts makes
  // them: the dwell columns must be the people estimate's, the dwell error scorePeople's.
  const world = createWorld({ ...SMALL_WORLD, visitorsPerDay: 120, seed: 4, shops: 2, openingHours: [10, 14], rotation: "realistic" });
  const run: DemoRun = { date: "2026-11-16", timeZone: "Asia/Seoul", seed: "4", speed: 30_000, elapsedMs: 1_000, currency: "KRW" };
  let results: DemoShopResult[];
  let people: ReturnType<typeof scorePeople>;

  beforeAll(async () => {
    const analysed = await Promise.all(world.shops.map((shop) => analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, proximity: false, quality: false })));
    people = scorePeople(
      analysed.flatMap((a) => a.people),
      peopleTruth(world),
    );
    results = world.shops.map((shop, i): DemoShopResult => {
      const a = analysed[i]!;
      const day = a.days[0]!;
      const truth = world.truth(shop.id);
      return {
        id: shop.id,
        name: shop.name,
        brand: "b",
        externalKey: "k",
        sensors: shop.sensors,
        timeZone: shop.timeZone,
        date: day.label,
        signals: 1,
        invalid: 0,
        counts: day,
        hours: [],
        dwell: { ...day, ...day.dwell },
        sessions: a.sessions,
        zones: [],
        sales: undefined,
        truth,
        score: scoreAgainstTruth(a.sessions, truth, { timeZone: shop.timeZone }),
        people: day.people,
        peopleScore: people.days.find((d) => d.shopId === shop.id),
      };
    });
  });

  const cellsOf = (text: string, name: string, accuracy: boolean): string[] => {
    const line = text.split("\n").find((l) => l.startsWith(name) && /\b(yes|NO|of)\b/.test(l) === accuracy)!;
    expect(line, name).toBeDefined();
    return line.slice(name.length).trim().split(/\s{2,}/);
  };
  const csvOf = (text: string): Record<string, string>[] => {
    const [head, ...rows] = text.trim().split("\n");
    return rows.map((r) => Object.fromEntries(r.split(",").map((v, i) => [head!.split(",")[i]!, v])));
  };

  it("shows each shop's dwell as the people estimate's (the identity-known visits'), not the MAC-level pieces", () => {
    const text = summaryText(results, undefined, run, people);
    for (const r of results) {
      const d = r.people!.dwell;
      expect(d.count).toBeGreaterThan(0);
      const cells = cellsOf(text, r.name, false);
      expect(cells.slice(4, 9)).toEqual(DWELL_BUCKETS.map((b) => int(d.buckets[b.key])));
      expect(cells[9]).toBe(minutes(d.medianMs));
      // Under rotation the MAC-level median is of pieces of visits: a different (shorter) figure.
      expect(r.dwell!.medianMs).toBeLessThan(d.medianMs);
    }
    // All shops: the estimates' visit counts add up per bucket; their medians do not pool, so none is shown.
    const all = cellsOf(text, "all shops", false);
    expect(all.slice(4, 9)).toEqual(DWELL_BUCKETS.map((b) => int(results.reduce((n, r) => n + r.people!.dwell.buckets[b.key], 0))));
    expect(all[9]).toBe("–");
    expect(text).toMatch(/dwell columns: visits by length of stay, of the visits seen whole/);
  });

  it("takes the accuracy table's median dwell error from scorePeople: |estimated − true median of the people's visits|", () => {
    const text = summaryText(results, undefined, run, people);
    for (const r of results) {
      const p = r.peopleScore!;
      const truth = dwellStats(peopleTruth(world).dwells(r.id, p.start, p.end)).medianMs;
      expect(p.trueMedianDwellMs).toBe(truth);
      expect(p.medianDwellErrorMs).toBe(r.people!.dwell.medianMs - truth);
      expect(cellsOf(text, r.name, true)[7]).toBe(`${Math.round(Math.abs(p.medianDwellErrorMs) / 1000)} s`);
    }
    expect(cellsOf(text, "all shops", true)[7]).toBe(`${Math.round(people.meanAbsMedianDwellErrorMs / 1000)} s`);
    expect(text).toContain("visitor F1: MAC-level");
  });

  it("writes the same dwell and dwell error in daily.csv", () => {
    const rows = csvOf(dailyCsv(results));
    results.forEach((r, i) => {
      const d = r.people!.dwell;
      expect(rows[i]!["dwell_median_s"]).toBe((d.medianMs / 1000).toFixed(1));
      expect(rows[i]!["dwell_p90_s"]).toBe((d.p90Ms / 1000).toFixed(1));
      expect(DWELL_BUCKETS.map((b) => Number(rows[i]![`dwell_${b.key}`]))).toEqual(DWELL_BUCKETS.map((b) => d.buckets[b.key]));
      expect(rows[i]!["median_abs_dwell_error_s"]).toBe((Math.abs(r.peopleScore!.medianDwellErrorMs) / 1000).toFixed(1));
    });
  });

  it("without a people estimate, falls back to the MAC-level dwell, and pools all shops' visitor sessions for their median", () => {
    const macOnly = results.map((r): DemoShopResult => ({ ...r, people: undefined, peopleScore: undefined }));
    const text = summaryText(macOnly, undefined, run);
    for (const r of macOnly) expect(cellsOf(text, r.name, false)[9]).toBe(minutes(r.dwell!.medianMs));
    const sessions = macOnly.flatMap((r) => r.sessions.filter((s) => s.kind === "visitor").map((s) => s.estimatedDwellMs));
    expect(cellsOf(text, "all shops", false)[9]).toBe(minutes(dwellStats(sessions).medianMs));
    const rows = csvOf(dailyCsv(macOnly));
    expect(rows[0]!["dwell_median_s"]).toBe((macOnly[0]!.dwell!.medianMs / 1000).toFixed(1));
    expect(rows[0]!["median_abs_dwell_error_s"]).toBe("");
  });
});

describe("footfall demo, in process, on a small fast day", () => {
  let dir: string;
  let status: number;
  let out: string;
  let err: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "footfall-demo-"));
    const world = join(dir, "world.json");
    await (await import("node:fs/promises")).writeFile(world, JSON.stringify(SMALL_WORLD));
    const { io, text } = fakeIo();
    status = await main(["demo", "--shops", "1", "--hours", "10-12", "--speed", "30000", "--world", world, "--out", dir], io);
    out = text.out;
    err = text.err;
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads the whole day, uploads its sales and exits 0", () => {
    expect(status, err).toBe(0);
    expect(err).toMatch(/sales: 1 shop-day uploaded/);
    expect(err).toContain("footfall demo: report in");
    // Not a terminal: plain lines, no cursor movement.
    expect(err).not.toContain("\x1b[");
    expect(err).toMatch(/^footfall demo: \d\d:\d\d \(\d+ %\) in range/m);
  });

  it("read every signal of the day, none twice", () => {
    const world = createWorld({ ...SMALL_WORLD, seed: 1, shops: 1, openingHours: [10, 12], days: 1, rotation: "realistic" });
    expect(out).toContain(`${int(world.signalCount())} signals read live`);
  });

  it("runs the world with rotation on by default and says so", () => {
    expect(err).toContain("MAC rotation realistic");
  });

  it("prints the summary and the accuracy table on stdout: people counted vs people present, the MAC-level count beside them", () => {
    expect(out).toContain("Cafe Mori Gangnam");
    expect(out).toMatch(/shop\s+visitors \[90 %\]\s+MAC visitors\s+passers-by\s+capture/);
    expect(out).toContain("accuracy against the simulator's ground truth: people counted vs people present");
    expect(out).toMatch(/people present\s+people counted \[90 %\]\s+error\s+in interval\s+MAC visitors\s+MAC error/);
    const world = createWorld({ ...SMALL_WORLD, seed: 1, shops: 1, openingHours: [10, 12], days: 1, rotation: "realistic" });
    const present = new Set(world.visits().filter((v) => v.kind === "visitor").map((v) => v.person)).size;
    const row = out.split("\n").find((l) => l.startsWith("Cafe Mori Gangnam") && /\b(yes|NO)\b/.test(l))!;
    expect(row).toBeDefined();
    expect(row.slice("Cafe Mori Gangnam".length).trim().split(/\s{2,}/)[0]).toBe(int(present));
  });

  it("--min-count K: daily.csv writes small counts as \"<K\" and the report draws those hours as suppressed", async () => {
    const small = await mkdtemp(join(tmpdir(), "footfall-demo-min-"));
    try {
      const world = join(small, "world.json");
      await (await import("node:fs/promises")).writeFile(world, JSON.stringify(SMALL_WORLD));
      const { io, text } = fakeIo();
      // Larger than any count of this small day: every count of people is suppressed, zeros stay.
      const k = 1_000_000;
      expect(await main(["demo", "--shops", "1", "--hours", "10-12", "--speed", "30000", "--world", world, "--out", small, "--min-count", String(k)], io), text.err).toBe(0);
      const csv = (await readFile(join(small, "daily.csv"), "utf8")).trim().split("\n");
      const head = csv[0]!.split(",");
      const row = Object.fromEntries(csv[1]!.split(",").map((v, i) => [head[i]!, v]));
      expect(row["visitors"]).toBe(`<${k}`);
      expect(row["passers_by"]).toBe(`<${k}`);
      expect(row["capture_rate"]).toBe("");
      expect(row["dwell_median_s"]).toBe("");
      expect(row["dwell_ge6h"]).toBe("0");
      const report = await readFile(join(small, "report.html"), "utf8");
      expect(report).toContain(`&lt;${k}`);
    } finally {
      await rm(small, { recursive: true, force: true });
    }
  });

  it("writes daily.csv, sessions.ndjson and a self-contained report.html that agree", async () => {
    const csv = (await readFile(join(dir, "daily.csv"), "utf8")).trim().split("\n");
    expect(csv).toHaveLength(2);
    const head = csv[0]!.split(",");
    const row = Object.fromEntries(csv[1]!.split(",").map((v, i) => [head[i]!, v]));
    expect(row["shop_id"]).toBe("101");
    expect(row["sales_status"]).toBe("uploaded");
    const sessions = (await readFile(join(dir, "sessions.ndjson"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { type: string; kind: string; device: string });
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((s) => s.type === "session")).toBe(true);
    const visitorDevices = new Set(sessions.filter((s) => s.kind === "visitor").map((s) => s.device));
    expect(Number(row["mac_visitors"])).toBe(visitorDevices.size);
    // People, not MACs: the estimate sits inside its interval, and is scored against the people present.
    expect(Number(row["visitors_low"])).toBeLessThanOrEqual(Number(row["visitors"]));
    expect(Number(row["visitors"])).toBeLessThanOrEqual(Number(row["visitors_high"]));
    expect(Number(row["truth_visitors"])).toBeGreaterThan(0);
    expect(Number(row["visitor_count_error"])).toBeCloseTo(Number(row["visitors"]) / Number(row["truth_visitors"]) - 1, 1);
    const html = await readFile(join(dir, "report.html"), "utf8");
    expectSelfContained(html);
    // The visitors' sessions carry proximity, so the report has its "where people stood" chart.
    expect(html).toContain("where people stood");
    expect(html).toContain("people inside");
    expect(html).toContain("People, not MAC addresses");
    expect((html.match(/<svg\b/g) ?? []).length).toBeGreaterThanOrEqual(9);
    const pos = await readFile(join(dir, "pos-transactions.csv"), "utf8");
    expect(pos.split("\n")[0]).toBe("brand,external_key,timestamp,amount,quantity");
  });
});

describe("footfall demo, interrupted", () => {
  it("stops on Ctrl-C, exits 1 and still writes what it has", async () => {
    const dir = await mkdtemp(join(tmpdir(), "footfall-demo-stop-"));
    try {
      const controller = new AbortController();
      const { io, text } = fakeIo({}, { signal: controller.signal });
      // Slow enough that the day is far from over when the signal comes.
      const running = main(["demo", "--shops", "1", "--hours", "10-12", "--speed", "600", "--out", dir], io);
      const started = Date.now();
      while (!/in range [1-9]/.test(text.err) && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 100));
      controller.abort();
      expect(await running).toBe(1);
      expect(text.err).toContain("interrupted");
      expect(text.out).toMatch(/interrupted at \d\d:\d\d/);
      const html = await readFile(join(dir, "report.html"), "utf8");
      expect(html).toContain('class="banner"');
      const csv = await readFile(join(dir, "daily.csv"), "utf8");
      expect(csv).toContain("not uploaded (interrupted before closing)");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
