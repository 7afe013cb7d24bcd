import { describe, expect, it } from "vitest";
import { analyze } from "../../src/analysis/analyze.ts";
import { analysisRecords } from "../../src/analysis/analysisRecords.ts";
import { writeAnalyzeTable } from "../../src/cli/analyzeTable.ts";
import type { Calibration } from "../../src/kernels/calibration/Calibration.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import { fakeIo } from "./fakeIo.ts";
import { calibrationFixture } from "../kernels/calibration/calibrationFixture.ts";

const world = createWorld({ seed: 21, shops: 2, rotation: "realistic", visitorsPerDay: 50, passersByPerDay: 300, staffPerShop: 2, stationaryPerShop: 1, openingHours: [10, 14] });
const result = await analyze(world.shops.flatMap((s) => [...world.rawSignals(s.id)]), { timeZone: world.shops[0]!.timeZone });

// The table's rows as header → cell text.
function tableRows(text: string): Record<string, string>[] {
  const [header, ...rows] = text.split("\n\n")[0]!.split("\n");
  // Cells are separated by two spaces or more; the people column holds single spaces.
  const names = header!.split(/ {2,}/);
  return rows.map((r) => Object.fromEntries(r.trim().split(/ {2,}/).map((cell, i) => [names[i]!, cell])));
}

describe("writeAnalyzeTable", () => {
  it("shows the summary line's figures: dwell in minutes, MAC-level counts beside the people", () => {
    const { io, text } = fakeIo();
    writeAnalyzeTable(io, result, 0, true);
    const summaries = [...analysisRecords(result)].filter((l) => l.type === "summary");
    const rows = tableRows(text.out);
    expect(rows).toHaveLength(summaries.length);
    for (const [i, s] of summaries.entries()) {
      const row = rows[i]!;
      expect(Number(row["MAC visitors"])).toBe((s.macs as { visitors: number }).visitors);
      expect(Number(row["staff"])).toBe(s.staff);
      const dwell = s.dwell as { medianMs: number; buckets: { lt5m: number } };
      expect(Number(row["dwell med min"])).toBeCloseTo(Math.round(dwell.medianMs / 6_000) / 10, 5);
      expect(Number(row["<5m"])).toBe(dwell.buckets.lt5m);
      expect(row["visitors"]).toBe(`${String(s.visitors)} [${String(s.visitorsLow)}–${String(s.visitorsHigh)}]`);
    }
    expect(text.out).toMatch(/\d+ sessions: \d+ visitor, \d+ passer-by, \d+ staff, \d+ stationary\n$/);
  });

  it("withholds with --min-count exactly what the NDJSON line withholds: <K for a count, blank for what is computed from it", () => {
    const k = 3;
    const { io, text } = fakeIo();
    writeAnalyzeTable(io, result, k, true);
    const plain = [...analysisRecords(result)].filter((l) => l.type === "summary");
    const lines = [...analysisRecords(result, { minCount: k })].filter((l) => l.type === "summary");
    const rows = tableRows(text.out);
    let withheld = 0;
    for (const [i, line] of lines.entries()) {
      for (const [column, field] of [["staff", "staff"], ["stationary", "stationary"], ["visits", "visits"]] as const) {
        const small = line[field] === null && typeof plain[i]![field] === "number";
        if (small) withheld++;
        expect(rows[i]![column]).toBe(small ? `<${k}` : String(line[field]));
      }
    }
    // The world has 2 staff and 1 stationary device per shop: something is withheld.
    expect(withheld).toBeGreaterThan(0);
  });

  it("names the calibration each row's people were estimated with, as its summary line does: prior, the id, or the id not trusted", async () => {
    const timeZone = world.shops[0]!.timeZone;
    // Fitted on the world's own day, in its settings: it applies as it is, unless it is untrusted itself.
    const calibration = (shopId: number, trusted: boolean): Calibration =>
      calibrationFixture({
        id: `cal-${shopId}-0a1b2c3d`,
        shopId,
        start: world.startMs,
        end: world.endMs,
        counts: { intervals: trusted ? 80 : 3, dailyCounts: 0, days: 1, personHours: 20 },
        settings: { intervalMs: 900_000, timeZone, visitorRssi: "auto" },
        trusted,
        warnings: trusted ? [] : ["fitted on 3 counted intervals"],
      });
    const [a, b] = world.shops;
    const calibrated = await analyze(
      world.shops.flatMap((s) => [...world.rawSignals(s.id)]),
      { timeZone, calibration: [calibration(a!.id, true), calibration(b!.id, false)] },
    );
    const cells = new Set<string>();
    for (const r of [result, calibrated]) {
      const { io, text } = fakeIo();
      writeAnalyzeTable(io, r, 0, true);
      const rows = tableRows(text.out);
      const summaries = [...analysisRecords(r)].filter((l) => l.type === "summary");
      expect(rows).toHaveLength(summaries.length);
      for (const [i, s] of summaries.entries()) {
        const c = s.calibration as { id: string; trusted: boolean } | null;
        expect(rows[i]!["calibration"]).toBe(c === null ? "prior" : c.trusted ? c.id : `${c.id} (not trusted)`);
        cells.add(rows[i]!["calibration"]!);
      }
    }
    expect([...cells].sort()).toEqual([`cal-${a!.id}-0a1b2c3d`, `cal-${b!.id}-0a1b2c3d (not trusted)`, "prior"]);
  });

  it("prints 'no sessions' for an empty result", async () => {
    const { io, text } = fakeIo();
    writeAnalyzeTable(io, await analyze([]), 0, true);
    expect(text.out).toBe("no sessions\n");
  });
});
