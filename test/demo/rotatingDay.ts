import { expect } from "vitest";
import { analyze } from "../../src/analysis/analyze.ts";
import type { DemoRun, DemoShopResult } from "../../src/demo/DemoShopResult.ts";
import { scoreAgainstTruth } from "../../src/kernels/visits/scoreAgainstTruth.ts";
import { scorePeople } from "../../src/kernels/people/scorePeople.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import { peopleTruth } from "../../src/sim/truth/peopleTruth.ts";
import { SMALL_WORLD } from "./smallWorld.ts";

// A small rotating world analysed shop by shop, made into the demo's results as runDemo makes
// them: the summary's and daily.csv's dwell columns must be the people estimate's, the dwell
// error scorePeople's (test/demo/summaryText.test.ts, test/demo/dailyCsv.test.ts).

/** The world: two shops, four opening hours, MACs rotating. */
export const world = createWorld({ ...SMALL_WORLD, visitorsPerDay: 120, seed: 4, shops: 2, openingHours: [10, 14], rotation: "realistic" });

/** The run's facts. */
export const run: DemoRun = { date: "2026-11-16", timeZone: "Asia/Seoul", seed: "4", speed: 30_000, elapsedMs: 1_000, currency: "KRW" };

/** The day's results per shop and the people scored against the world's truth. */
export async function rotatingDayResults(): Promise<{ results: DemoShopResult[]; people: ReturnType<typeof scorePeople> }> {
  const analysed = await Promise.all(world.shops.map((shop) => analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, proximity: false, quality: false })));
  const people = scorePeople(
    analysed.flatMap((a) => a.people),
    peopleTruth(world),
  );
  const results = world.shops.map((shop, i): DemoShopResult => {
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
      dwell: day.dwell,
      sessions: a.sessions,
      zones: [],
      sales: undefined,
      truth,
      score: scoreAgainstTruth(a.sessions, truth, { timeZone: shop.timeZone }),
      people: day.people,
      peopleScore: people.days.find((d) => d.shopId === shop.id),
    };
  });
  return { results, people };
}

/** The cells of the shop's row after its name, in the traffic table or (`accuracy`) the accuracy table. */
export const cellsOf = (text: string, name: string, accuracy: boolean): string[] => {
  const line = text.split("\n").find((l) => l.startsWith(name) && /\b(yes|NO|of)\b/.test(l) === accuracy)!;
  expect(line, name).toBeDefined();
  return line.slice(name.length).trim().split(/\s{2,}/);
};

/** daily.csv's rows as records by column. */
export const csvOf = (text: string): Record<string, string>[] => {
  const [head, ...rows] = text.trim().split("\n");
  return rows.map((r) => Object.fromEntries(r.split(",").map((v, i) => [head!.split(",")[i]!, v])));
};
