/**
 * Round trip: any set of truth rows, written to CSV the ways real files write it (any column
 * order and header case, extra columns, any UTC offset per cell, with or without milliseconds,
 * BOM, CRLF, blank lines, rows in any order, unknown counts in between), parses back to exactly
 * those rows, with the lines they were written on.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DailyCount, TruthSegment } from "../../src/truth/CountedTruth.ts";
import { parseTruth } from "../../src/truth/parseTruth.ts";

/** An instant written with an offset of `offsetMinutes`, as `2024-03-14T13:54:07.533+01:00`. */
function formatInstant(ms: number, offsetMinutes: number, withMillis: boolean): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString(); // the wall clock at that offset
  const clock = withMillis ? local.slice(0, 23) : local.slice(0, 19);
  if (offsetMinutes === 0 && withMillis) return `${clock}Z`;
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${clock}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

interface Style {
  readonly bom: boolean;
  readonly eol: "\n" | "\r\n";
  /** A permutation seed for the columns, and whether to add an extra column. */
  readonly columnOrder: number;
  readonly extraColumn: boolean;
  readonly upperHeader: boolean;
  readonly blankEvery: number;
}

const style: fc.Arbitrary<Style> = fc.record({
  bom: fc.boolean(),
  eol: fc.constantFrom("\n" as const, "\r\n" as const),
  columnOrder: fc.nat(),
  extraColumn: fc.boolean(),
  upperHeader: fc.boolean(),
  blankEvery: fc.integer({ min: 0, max: 4 }),
});

/** Non-overlapping segments per shop: each shop's spans follow each other with gaps ≥ 0. */
const segmentsArb = fc
  .array(
    fc.record({
      shopId: fc.integer({ min: 0, max: 3 }),
      gapMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 6 * 3_600_000 })),
      lengthMs: fc.integer({ min: 1, max: 12 * 3_600_000 }),
      // people as a plain decimal (whole or in hundredths), as a counter or a mean writes it
      people: fc.oneof(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 6000 }).map((n) => n / 100)),
      startOffset: fc.integer({ min: -14 * 60, max: 14 * 60 }),
      endOffset: fc.constantFrom(0, 60, 120, -300, 330, 545, -570),
      withMillis: fc.boolean(),
    }),
    { minLength: 1, maxLength: 30 },
  )
  .chain((rows) =>
    fc.record({
      base: fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) }),
      rows: fc.constant(rows),
      order: fc.shuffledSubarray(rows.map((_, i) => i), { minLength: rows.length, maxLength: rows.length }),
      unknownAt: fc.array(fc.nat(rows.length), { maxLength: 4 }),
    }),
  );

function permuted<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Writes rows as CSV in `style`; returns the text and the line each row landed on. */
function writeCsv(columns: readonly string[], rows: readonly Record<string, string>[], st: Style): { text: string; lines: number[] } {
  const cols = permuted(st.extraColumn ? [...columns, "note"] : columns, st.columnOrder);
  const out: string[] = [cols.map((c) => (st.upperHeader ? ` ${c.toUpperCase()} ` : c)).join(",")];
  const lines: number[] = [];
  rows.forEach((row, i) => {
    if (st.blankEvery > 0 && i % st.blankEvery === 0) out.push("");
    out.push(cols.map((c) => (c === "note" ? `"n, ${i}"` : row[c]!)).join(","));
    lines.push(out.length);
  });
  return { text: (st.bom ? "\uFEFF" : "") + out.join(st.eol) + st.eol, lines };
}

describe("parseTruth round trip (fast-check)", () => {
  it("segments written to CSV parse back to themselves", () => {
    fc.assert(
      fc.property(segmentsArb, style, ({ base, rows, order, unknownAt }, st) => {
        const ends = new Map<number, number>();
        const segments = rows.map((r) => {
          const start = (ends.get(r.shopId) ?? base) + r.gapMs;
          const end = start + r.lengthMs;
          ends.set(r.shopId, end);
          return { ...r, start, end };
        });
        // rows in any order, with unknown ones (overlapping anything: they claim nothing) between
        const written: { cells: Record<string, string>; known?: (typeof segments)[number] }[] = [];
        order.forEach((index, position) => {
          const s = segments[index]!;
          if (unknownAt.includes(position)) {
            written.push({ cells: { shop_id: String(s.shopId), start: formatInstant(s.start, 0, true), end: formatInstant(s.end, 60, true), people: position % 2 === 0 ? "NaN" : "" } });
          }
          const millis = s.withMillis || s.start % 1000 !== 0 || s.end % 1000 !== 0;
          written.push({
            cells: { shop_id: String(s.shopId), start: formatInstant(s.start, s.startOffset, millis), end: formatInstant(s.end, s.endOffset, millis), people: String(s.people) },
            known: s,
          });
        });
        const { text, lines } = writeCsv(["shop_id", "start", "end", "people"], written.map((w) => w.cells), st);

        const truth = parseTruth(text, "p.csv");

        const expected: TruthSegment[] = written
          .flatMap((w, i) => (w.known === undefined ? [] : [{ shopId: w.known.shopId, start: w.known.start, end: w.known.end, people: w.known.people, line: lines[i]!, source: "p.csv" }]))
          .sort((a, b) => a.shopId - b.shopId || a.start - b.start);
        expect(truth.segments).toEqual(expected);
        expect(truth.daily).toEqual([]);
        expect(truth.unknownRows).toBe(written.length - segments.length);
      }),
      { numRuns: 300 },
    );
  });

  it("daily counts written to CSV parse back to themselves", () => {
    const dailyArb = fc.uniqueArray(
      fc.record({
        shopId: fc.integer({ min: 0, max: 5 }),
        day: fc.integer({ min: 0, max: 3000 }),
        visitors: fc.integer({ min: 0, max: 100_000 }),
      }),
      { minLength: 1, maxLength: 40, selector: (d) => `${d.shopId}/${d.day}` },
    );
    fc.assert(
      fc.property(dailyArb, style, (rows, st) => {
        const dated = rows.map((r) => ({ ...r, date: new Date(Date.UTC(2020, 0, 1) + r.day * 86_400_000).toISOString().slice(0, 10) }));
        const { text, lines } = writeCsv(
          ["shop_id", "date", "visitors"],
          dated.map((d) => ({ shop_id: String(d.shopId), date: d.date, visitors: String(d.visitors) })),
          st,
        );
        const expected: DailyCount[] = dated
          .map((d, i) => ({ shopId: d.shopId, date: d.date, visitors: d.visitors, line: lines[i]!, source: "d.csv" }))
          .sort((a, b) => a.shopId - b.shopId || a.date.localeCompare(b.date));
        expect(parseTruth(text, "d.csv")).toEqual({ segments: [], daily: expected, unknownRows: 0 });
      }),
      { numRuns: 200 },
    );
  });
});
