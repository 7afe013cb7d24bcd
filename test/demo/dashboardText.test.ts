import { describe, expect, it } from "vitest";
import { dashboardLines, dashboardTable, plainLine } from "../../src/demo/dashboardText.ts";
import { int } from "../../src/demo/textFormats.ts";
import { frame, snap } from "./liveSnapshots.ts";

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
});
