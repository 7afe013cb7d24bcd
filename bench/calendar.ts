/**
 * Why per-record calendar code keeps cached offsets and integer arithmetic while everything
 * else uses date-fns: the per-record operations, done the cached way (`LocalCalendar`,
 * `parseSalesTimestamp`) against the same operation with date-fns / @date-fns/tz per record.
 * A ratio above 1 is how many times slower date-fns is per record; per local day (what
 * `LocalCalendar` asks date-fns for) the difference does not matter.
 *
 * Run alone: `npx tsx bench/calendar.ts`.
 */
import { TZDate } from "@date-fns/tz";
import { format, parseISO, startOfHour } from "date-fns";
import { pathToFileURL } from "node:url";
import { parseSalesTimestamp } from "../src/sales/parseSalesTimestamp.ts";
import { LocalCalendar } from "../src/time/LocalCalendar.ts";
import { prng, rate, timePair, timeRatio, type BenchRow } from "./lib.ts";

// date-fns takes ~50–70 µs per record here, so a small sample already gives a steady ratio.
const ROWS = 20_000;
const ZONE = "Asia/Seoul";
const YEAR_START = Date.UTC(2026, 0, 1);
const YEAR_MS = 365 * 86_400_000;

/**
 * The bench: three per-record operations, each cached vs date-fns.
 *
 * @example
 * const rows = await calendarBench();
 */
export default async function calendarBench(): Promise<BenchRow[]> {
  const random = prng(11);
  // A sales file in no particular order: instants spread over a year.
  const unsorted = Array.from({ length: ROWS }, () => YEAR_START + Math.floor(random() * YEAR_MS));
  // Signals in time order: one day, a record every ~0.4 s.
  const sorted = Array.from({ length: ROWS }, (_, i) => YEAR_START + i * 400);
  const stamps = unsorted.map((ms) => format(new TZDate(ms, ZONE), "yyyy-MM-dd'T'HH:mm:ssxxx"));
  let sink = 0;

  const rows: BenchRow[] = [];
  const add = (figure: string, unit: string, [cached, dateFns]: Awaited<ReturnType<typeof timePair>>, baseline: string): void => {
    const ratio = timeRatio(dateFns.samples, cached.samples);
    rows.push({
      figure,
      footfall: rate((ROWS / cached.median) * 1000, unit),
      baseline: `${rate((ROWS / dateFns.median) * 1000, unit)} ${baseline}`,
      ratio: Number(ratio.toFixed(1)),
      goal: "informational: date-fns time ÷ cached time per record (> 1: the cache pays)",
      met: ratio > 1,
      note: `${ROWS} records; cached median ${cached.median.toFixed(0)} ms, date-fns median ${dateFns.median.toFixed(0)} ms`,
    });
  };

  add(
    "Calendar: local date of unsorted sales rows (rows/s)",
    "rows/s",
    await timePair(
      () => {
        const cal = new LocalCalendar(ZONE);
        for (const ms of unsorted) sink += cal.dateOf(ms).length;
      },
      () => {
        for (const ms of unsorted) sink += format(new TZDate(ms, ZONE), "yyyy-MM-dd").length;
      },
      { runs: 5, warmup: 1 },
    ),
    "TZDate + format per row",
  );
  add(
    "Calendar: sales timestamp parsing (rows/s)",
    "rows/s",
    await timePair(
      () => {
        for (const s of stamps) if (typeof parseSalesTimestamp(s) === "number") sink++;
      },
      () => {
        for (const s of stamps) sink += parseISO(s).getTime() > 0 ? 1 : 0;
      },
      { runs: 5, warmup: 1 },
    ),
    "parseISO per row",
  );
  add(
    "Calendar: local hour of time-ordered signals (records/s)",
    "rec/s",
    await timePair(
      () => {
        const cal = new LocalCalendar(ZONE);
        for (const ms of sorted) sink += cal.hourStart(ms) & 1;
      },
      () => {
        for (const ms of sorted) sink += startOfHour(new TZDate(ms, ZONE)).getTime() & 1;
      },
      { runs: 5, warmup: 1 },
    ),
    "startOfHour(TZDate) per record",
  );
  if (sink === 0) throw new Error("nothing measured");
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await calendarBench());
}
