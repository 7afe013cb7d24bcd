import { alignTable, int, minutes, pct, withInterval } from "./textFormats.ts";
import type { LiveInside, LivePeople, ShopLiveSnapshot } from "./ShopLive.ts";

/**
 * One frame of the demo's dashboard: the clock, progress through the day and every shop.
 *
 * @example
 * const frame: DashboardFrame = { heading: "2 shops · Mon 16 Nov 2026 · Asia/Seoul", clock: "14:05", fraction: 0.52, elapsedMs: 31_000, shops: [], status: "sales: at closing time" };
 */
export interface DashboardFrame {
  /** What is shown, one line. */
  readonly heading: string;
  /** Simulated local time, `HH:MM`. */
  readonly clock: string;
  /** Progress through the day, 0…1. */
  readonly fraction: number;
  /** Real time since the demo started, ms. */
  readonly elapsedMs: number;
  readonly shops: readonly ShopLiveSnapshot[];
  /** The sales line (when and how the day's sales go up). */
  readonly status: string;
  /** How far reading is behind the simulated clock, ms (shown when over a few minutes). @default 0 */
  readonly lagMs?: number;
}

/**
 * Sums of the shops' live figures; the median dwell is the shops' medians weighted by their
 * visitors. People (who came in, and inside now): the sums of the estimates, with no interval
 * (the shops' 90 % intervals do not add up to one of the sum), and only once every shop has one.
 */
function totalsOf(shops: readonly ShopLiveSnapshot[]): Omit<ShopLiveSnapshot, "shopId" | "name" | "lastEventMs" | "done"> {
  let signals = 0;
  let invalid = 0;
  let inRange = 0;
  let visitors = 0;
  let passersBy = 0;
  let weighted = 0;
  let weight = 0;
  const zones = { immediate: 0, near: 0, far: 0 };
  for (const s of shops) {
    signals += s.signals;
    invalid += s.invalid;
    inRange += s.inRange;
    visitors += s.visitors;
    passersBy += s.passersBy;
    zones.immediate += s.zones.immediate;
    zones.near += s.zones.near;
    zones.far += s.zones.far;
    if (Number.isFinite(s.medianDwellMs) && s.visitors > 0) {
      weighted += s.medianDwellMs * s.visitors;
      weight += s.visitors;
    }
  }
  let people: number | undefined = 0;
  for (const s of shops) people = people === undefined || s.people === undefined ? undefined : people + s.people.visitors;
  let inside: number | undefined = 0;
  for (const s of shops) inside = inside === undefined || s.inside === undefined ? undefined : inside + s.inside.inside;
  return {
    signals,
    invalid,
    inRange,
    visitors,
    passersBy,
    zones,
    medianDwellMs: weight > 0 ? weighted / weight : Number.NaN,
    ...(people === undefined ? {} : { people: { visitors: people, low: Number.NaN, high: Number.NaN } }),
    ...(inside === undefined ? {} : { inside: { inside, low: Number.NaN, high: Number.NaN } }),
  };
}

/**
 * The table part of a dashboard frame: a header and one line per shop, then all shops together.
 * People, not MACs: "inside [90 %]" is the live estimate of people inside over the latest
 * interval, "people [90 %]" of people who came in so far, each with its interval, "MAC visitors"
 * the devices whose session looked like a visit. Pure text, so it can be tested and shown
 * anywhere. `compact` fits 80 columns: shorter names and headers, no devices in range, no one
 * inside, no signal count.
 *
 * @example
 * dashboardTable(frame.shops).split("\n")[0]; // "  shop  in range  inside [90 %]  people [90 %]  MAC visitors  passers-by  median dwell  zones imm/near/far  signals"
 */
export function dashboardTable(shops: readonly ShopLiveSnapshot[], compact = false): string {
  const row = (name: string, s: Omit<ShopLiveSnapshot, "shopId" | "name" | "lastEventMs" | "done">): string[] => {
    const cells = [
      name,
      ...(compact ? [] : [int(s.inRange), insideText(s.inside)]),
      peopleText(s.people),
      int(s.visitors),
      int(s.passersBy),
      minutes(s.medianDwellMs),
      `${int(s.zones.immediate)} / ${int(s.zones.near)} / ${int(s.zones.far)}`,
    ];
    if (!compact) cells.push(int(s.signals));
    return cells;
  };
  const rows = shops.map((s) => row(`${s.done ? "✓ " : "  "}${s.name}`, s));
  if (shops.length > 1) rows.push(row("  all shops", totalsOf(shops)));
  const head = compact
    ? ["  shop", "people [90 %]", "MACs", "passers-by", "dwell", "zones i/n/f"]
    : ["  shop", "in range", "inside [90 %]", "people [90 %]", "MAC visitors", "passers-by", "median dwell", "zones imm/near/far", "signals"];
  return alignTable(head, rows, [false, ...head.slice(1).map(() => true)], [compact ? 20 : 28]);
}

/**
 * Every line of a dashboard frame below the progress bar: the table, the sales line and a hint.
 * Terminals narrower than 104 columns get the compact table.
 *
 * @example
 * dashboardLines(frame).length; // shops + 4 (header, totals, sales, hint) when there are several shops
 */
export function dashboardLines(frame: DashboardFrame, columns = 120): string[] {
  const lines = dashboardTable(frame.shops, columns < 104).trimEnd().split("\n");
  const lag = frame.lagMs ?? 0;
  lines.push(`  ${frame.status}${lag > 5 * 60_000 ? `  ·  reading ${Math.round(lag / 60_000)} min behind the clock` : ""}`);
  lines.push(
    columns < 104
      ? "  all figures are provisional · Ctrl-C stops and writes the report"
      : "  inside, people (estimates), MAC visitors and dwell are provisional until the day is decided · Ctrl-C stops and still writes the report",
  );
  return lines;
}

/**
 * One plain line for logs and pipes (no terminal): the clock and all shops' live totals.
 *
 * @example
 * plainLine(frame); // "footfall demo: 14:05 (52 %) in range 180 · inside ≈ 12 · people ≈ 540 · MAC visitors 560 · passers-by 6,003 · median dwell 15.0 min · zones 12/40/91 · signals 260,000"
 */
export function plainLine(frame: DashboardFrame): string {
  const t = totalsOf(frame.shops);
  return (
    `footfall demo: ${frame.clock} (${pct(frame.fraction, 0)}) in range ${int(t.inRange)} · ` +
    `${t.inside === undefined ? "" : `inside ≈ ${int(t.inside.inside)} · `}` +
    `${t.people === undefined ? "" : `people ≈ ${int(t.people.visitors)} · `}MAC visitors ${int(t.visitors)} · ` +
    `passers-by ${int(t.passersBy)} · median dwell ${minutes(t.medianDwellMs)} · zones ${int(t.zones.immediate)}/${int(t.zones.near)}/${int(t.zones.far)} · ` +
    `signals ${int(t.signals)}`
  );
}

// The estimate with its interval; the all-shops sum has no interval (NaN bounds), "–" before any estimate.
function peopleText(p: LivePeople | undefined): string {
  return p === undefined ? "–" : withInterval(p.visitors, p.low, p.high);
}

// People inside, to a tenth below ten (a small shop holds a few), with its interval likewise.
function insideText(p: LiveInside | undefined): string {
  return p === undefined ? "–" : withInterval(p.inside, p.low, p.high, (x) => (x < 10 ? x.toFixed(1) : int(x)));
}
