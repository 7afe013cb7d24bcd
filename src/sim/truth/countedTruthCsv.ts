import { rejectUnknownKeys } from "../../options/rejectUnknownKeys.ts";
import { dateOfEpochDay } from "../../time/calendarDate.ts";
import { localDayOf, localMidnight } from "../../time/timeZone.ts";
import { formatInZone } from "../../time/formatLocal.ts";
import { peopleTruth } from "./peopleTruth.ts";
import type { World } from "../world/World.ts";

/**
 * Options of {@link countedTruthCsv}.
 *
 * @example
 * const options: CountedTruthOptions = { shape: "inside", segmentMinutes: 60 };
 */
export interface CountedTruthOptions {
  /**
   * `"inside"`: people inside, time-averaged over each segment (`shop_id,start,end,people`);
   * `"daily"`: people who came in per local day (`shop_id,date,visitors`).
   * @default "inside"
   */
  readonly shape?: "inside" | "daily";
  /** Length of each segment of the `"inside"` shape, minutes (the last one ends at `toMs`). @default 15 */
  readonly segmentMinutes?: number;
}

/**
 * Defaults of {@link CountedTruthOptions}.
 *
 * @example
 * defaultCountedTruthOptions.segmentMinutes; // 15
 */
export const defaultCountedTruthOptions = Object.freeze({ shape: "inside", segmentMinutes: 15 } as const);

const KEYS: ReadonlySet<string> = new Set(Object.keys(defaultCountedTruthOptions));
/** Most rows one call writes: a year of minutes, far more than a door counter exports at once. */
const MAX_ROWS = 600_000;

/**
 * A shop's ground truth over [fromMs, toMs) (epoch ms) as a door counter would serve it: the CSV
 * text footfall's calibration and scoring read as counted truth (docs/people.md, "Counted truth").
 *
 * - `"inside"`: header `shop_id,start,end,people`, one row per segment of `segmentMinutes` laid
 *   from `fromMs` (pass a local midnight or opening time for quarter hours of the clock), `start`
 *   and `end` ISO 8601 in the shop's local time with its offset then and milliseconds
 *   (`2026-11-16T10:00:00.000+09:00`), `people` the exact time-averaged number of visitors inside
 *   over [start, end) (`peopleTruth(world).inside`, up to 3 decimals; staff left out, as the
 *   estimate leaves them out).
 * - `"daily"`: header `shop_id,date,visitors`, one row per local day [fromMs, toMs) touches,
 *   `visitors` the people who came in that day (`peopleTruth(world).visitors`; a day the span cuts
 *   counts only its part).
 *
 * People, not devices: a rotating phone's many MACs, a laptop carried beside a phone, fixed
 * equipment and passers-by add nobody. Lines end with `\n`. Throws RangeError for an unknown shop,
 * an empty or non-finite span, or invalid options (TypeError for unknown keys).
 *
 * @example
 * const world = createWorld({ shops: 1, phones: "real" });
 * const from = Date.parse("2026-11-16T10:00:00+09:00");
 * countedTruthCsv(world, 101, from, from + 3_600_000);
 * // "shop_id,start,end,people\n101,2026-11-16T10:00:00.000+09:00,2026-11-16T10:15:00.000+09:00,3.412\n…"
 * countedTruthCsv(world, 101, world.startMs, world.endMs, { shape: "daily" });
 * // "shop_id,date,visitors\n101,2026-11-16,452\n"
 */
export function countedTruthCsv(world: Pick<World, "shop" | "visits" | "occupancy">, shopId: number, fromMs: number, toMs: number, options: CountedTruthOptions = {}): string {
  if (options === null || typeof options !== "object") throw new TypeError("counted truth options must be an object");
  rejectUnknownKeys(options, KEYS, "counted truth option");
  const shape = options.shape ?? defaultCountedTruthOptions.shape;
  const segmentMinutes = options.segmentMinutes ?? defaultCountedTruthOptions.segmentMinutes;
  if (shape !== "inside" && shape !== "daily") throw new RangeError(`shape must be "inside" or "daily", got ${JSON.stringify(shape)}`);
  if (typeof segmentMinutes !== "number" || !Number.isFinite(segmentMinutes) || segmentMinutes <= 0 || segmentMinutes > 24 * 60) {
    throw new RangeError(`segmentMinutes must be in (0, 1440], got ${String(segmentMinutes)}`);
  }
  const shop = world.shop(shopId);
  if (shop === undefined) throw new RangeError(`no shop ${shopId}`);
  if (!Number.isFinite(fromMs) || !Number.isFinite(toMs) || !(fromMs < toMs)) throw new RangeError(`the span must be finite epoch ms with fromMs < toMs, got [${fromMs}, ${toMs})`);
  const truth = peopleTruth(world);
  const tz = shop.timeZone;
  if (shape === "daily") {
    let out = "shop_id,date,visitors\n";
    const last = localDayOf(toMs - 1, tz);
    const first = localDayOf(fromMs, tz);
    if (last - first + 1 > MAX_ROWS) throw new RangeError(`the span holds more than ${MAX_ROWS} days`);
    for (let day = first; day <= last; day++) {
      const from = Math.max(fromMs, localMidnight(day, tz));
      const to = Math.min(toMs, localMidnight(day + 1, tz));
      out += `${shopId},${dateOfEpochDay(day)},${truth.visitors(shopId, from, to)}\n`;
    }
    return out;
  }
  const stepMs = Math.round(segmentMinutes * 60_000);
  if ((toMs - fromMs) / stepMs > MAX_ROWS) throw new RangeError(`the span holds more than ${MAX_ROWS} segments of ${segmentMinutes} min`);
  let out = "shop_id,start,end,people\n";
  for (let start = fromMs; start < toMs; start += stepMs) {
    const end = Math.min(toMs, start + stepMs);
    out += `${shopId},${isoMs(start, tz)},${isoMs(end, tz)},${people(truth.inside(shopId, start, end))}\n`;
  }
  return out;
}

// ISO 8601 with milliseconds and the zone's offset at that instant (it changes across DST).
function isoMs(ms: number, timeZone: string): string {
  const text = formatInZone(ms, timeZone, "iso");
  const frac = String(((ms % 1000) + 1000) % 1000).padStart(3, "0");
  return `${text.slice(0, -6)}.${frac}${text.slice(-6)}`;
}

// A mean, so fractional; 3 decimals (a thousandth of a person) are more than any counter gives,
// and trailing zeros dropped ("4", "6.5"). −0 from rounding a tiny negative sum would read oddly.
function people(mean: number): string {
  const v = Math.round(mean * 1000) / 1000;
  return String(v === 0 ? 0 : v);
}
