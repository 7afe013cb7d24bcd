/**
 * The plain-loop baseline of the big shop-day bench (issue 13): what one would write by hand for
 * the minimal job, and nothing more — read the file, `JSON.parse` each line, parse `row_key`,
 * sessionize per shop and device (a gap of more than 5 min starts a new session), classify each
 * session (a visit when dwell ≥ 5 min and peak RSSI ≥ −75 dBm) and count per shop and local day
 * of the session's start: sessions, visits, visitors (devices with a visit) and devices. Records
 * are taken in file order (the file is sorted by RTS, as a backfill writes it).
 *
 * Run as its own process by the bench: `node bigShopLoop.js FILE [TIME_ZONE]` prints one JSON
 * line of {@link BigShopLoopResult}.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { fileURLToPath } from "node:url";

const GAP_MS = 300_000;
const MIN_DWELL_MS = 300_000;
const VISITOR_RSSI = -75;
/** UTC offsets change only at whole quarter hours, so the local date is constant within one. */
const QUARTER_HOUR_MS = 900_000;

/**
 * Counts of one shop and local day.
 *
 * @example
 * const d: BigShopDayCounts = { shopId: 101, date: "2026-11-16", sessions: 10, visits: 2, visitors: 2, devices: 9 };
 */
export interface BigShopDayCounts {
  readonly shopId: number;
  /** Local date of the sessions' start, `YYYY-MM-DD`. */
  readonly date: string;
  readonly sessions: number;
  /** Sessions that are visits (dwell ≥ 5 min and peak RSSI ≥ −75 dBm). */
  readonly visits: number;
  /** Distinct devices with at least one visit. */
  readonly visitors: number;
  /** Distinct devices with at least one session. */
  readonly devices: number;
}

/**
 * What {@link bigShopLoop} computes (and, with `records` NaN, what the DuckDB baseline returns).
 *
 * @example
 * const r: BigShopLoopResult = { records: 0, days: [] };
 */
export interface BigShopLoopResult {
  /** Lines read (non-blank). */
  readonly records: number;
  /** Per shop and local day, by shop then date. */
  readonly days: readonly BigShopDayCounts[];
}

interface Open {
  start: number;
  end: number;
  peak: number;
}

interface Day {
  readonly shopId: number;
  readonly date: string;
  sessions: number;
  visits: number;
  readonly visitors: Set<string>;
  readonly devices: Set<string>;
}

/**
 * Runs the minimal analysis over an NDJSON file of signal records; see the module comment.
 *
 * @example
 * const result = bigShopLoop("day.ndjson", "Asia/Seoul");
 * result.days[0]?.visitors;
 */
export function bigShopLoop(path: string, timeZone: string): BigShopLoopResult {
  const format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  const dateOf = new Map<number, string>();
  const localDate = (ms: number): string => {
    const q = Math.floor(ms / QUARTER_HOUR_MS);
    let date = dateOf.get(q);
    if (date === undefined) dateOf.set(q, (date = format.format(q * QUARTER_HOUR_MS)));
    return date;
  };
  const open = new Map<number, Map<string, Open>>();
  const days = new Map<string, Day>();
  const close = (shopId: number, device: string, s: Open): void => {
    const date = localDate(s.start);
    const key = `${shopId} ${date}`;
    let day = days.get(key);
    if (day === undefined) days.set(key, (day = { shopId, date, sessions: 0, visits: 0, visitors: new Set(), devices: new Set() }));
    day.sessions++;
    day.devices.add(device);
    if (s.end - s.start >= MIN_DWELL_MS && s.peak >= VISITOR_RSSI) {
      day.visits++;
      day.visitors.add(device);
    }
  };

  let records = 0;
  const line = (text: string): void => {
    if (text.trim() === "") return;
    records++;
    const r = JSON.parse(text) as { row_key: string; device_id: string; rssi: number; ts: number };
    const colon = r.row_key.lastIndexOf(":");
    const shopId = Number(r.row_key.slice(0, colon));
    let devices = open.get(shopId);
    if (devices === undefined) open.set(shopId, (devices = new Map()));
    const t = r.ts;
    const s = devices.get(r.device_id);
    if (s === undefined || t - s.end > GAP_MS) {
      if (s !== undefined) close(shopId, r.device_id, s);
      devices.set(r.device_id, { start: t, end: t, peak: r.rssi });
    } else {
      if (t > s.end) s.end = t;
      if (r.rssi > s.peak) s.peak = r.rssi;
    }
  };

  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(1 << 20);
    const decoder = new StringDecoder("utf8");
    let rest = "";
    for (;;) {
      const got = readSync(fd, buffer, 0, buffer.length, null);
      if (got === 0) break;
      const text = rest + decoder.write(buffer.subarray(0, got));
      let start = 0;
      let nl = text.indexOf("\n");
      while (nl !== -1) {
        line(text.slice(start, nl));
        start = nl + 1;
        nl = text.indexOf("\n", start);
      }
      rest = text.slice(start);
    }
    line(rest + decoder.end());
  } finally {
    closeSync(fd);
  }
  for (const [shopId, devices] of open) for (const [device, s] of devices) close(shopId, device, s);

  const out = [...days.values()]
    .sort((a, b) => a.shopId - b.shopId || (a.date < b.date ? -1 : 1))
    .map((d) => ({ shopId: d.shopId, date: d.date, sessions: d.sessions, visits: d.visits, visitors: d.visitors.size, devices: d.devices.size }));
  return { records, days: out };
}

if (process.argv[1] !== undefined && process.argv[1] === fileURLToPath(import.meta.url)) {
  const [path, timeZone = "Asia/Seoul"] = process.argv.slice(2);
  if (path === undefined) throw new Error("usage: node bigShopLoop.js FILE [TIME_ZONE]");
  process.stdout.write(`${JSON.stringify(bigShopLoop(path, timeZone))}\n`);
}
