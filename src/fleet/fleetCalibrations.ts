import type { Pool } from "pg";
import { checkCalibration, type Calibration } from "../kernels/calibration/Calibration.ts";

/**
 * A shop's current people calibration as the fleet stores it (`footfall_calibrations`): the shop,
 * the calibration's id, when it was set (ISO 8601) and the calibration itself. One
 * `footfall fleet calibration show` line is this with `type: "calibration"` first.
 *
 * @example
 * const [stored] = await fleetCalibrations(pool, [101]);
 * stored?.calibration.burstsPerMinute; // the shop's fitted yardstick, when one is set
 */
export interface StoredCalibration {
  readonly shopId: number;
  /** The calibration's id (`cal-<shopId>-…`), as every line estimated with it names it. */
  readonly id: string;
  /** When it was set, ISO 8601 (UTC). */
  readonly setAt: string;
  readonly calibration: Calibration;
}

/**
 * What {@link setFleetCalibrations} did for one shop: the calibration set and the one it replaced.
 *
 * @example
 * const r: CalibrationSet = { shopId: 101, id: "cal-101-0a1b2c3d", previous: null };
 */
export interface CalibrationSet {
  readonly shopId: number;
  readonly id: string;
  /** Id of the calibration it replaced; null when the shop had none. */
  readonly previous: string | null;
}

/**
 * Stores each calibration as its shop's current one, replacing the shop's previous one: one
 * statement (an upsert), so either all are stored or none, and a job starting meanwhile reads the
 * old set or the new, never half. Every calibration is checked first (`checkCalibration`: a
 * TypeError naming the first bad field); two of one shop are a RangeError. Jobs already running
 * keep the calibration they started with; the shop's next job uses the new one.
 *
 * @returns one entry per shop, by SHOP ID ascending
 * @example
 * const [stored] = await fleetCalibrations(pool, [101]);
 * // Setting a shop's calibration again replaces it with itself.
 * if (stored !== undefined) (await setFleetCalibrations(pool, [stored.calibration]))[0]!.previous === stored.id; // true
 */
export async function setFleetCalibrations(pool: Pool, calibrations: readonly Calibration[]): Promise<CalibrationSet[]> {
  const checked = calibrations.map((c, i) => checkCalibration(c, `setFleetCalibrations: calibration ${i}`));
  const shops = checked.map((c) => c.shopId);
  if (new Set(shops).size !== shops.length) throw new RangeError("setFleetCalibrations: two calibrations of one shop");
  if (checked.length === 0) return [];
  // `old` reads the table as it was before this statement: what each upsert replaced.
  const r = await pool.query<{ shop_id: string; calibration_id: string; previous: string | null }>(
    `WITH old AS (SELECT shop_id, calibration_id FROM footfall_calibrations WHERE shop_id = ANY($1::bigint[])),
     up AS (
       INSERT INTO footfall_calibrations (shop_id, calibration_id, calibration, set_at)
       SELECT shop_id, id, calibration::jsonb, now() FROM unnest($1::bigint[], $2::text[], $3::text[]) AS t(shop_id, id, calibration)
       ON CONFLICT (shop_id) DO UPDATE SET calibration_id = EXCLUDED.calibration_id, calibration = EXCLUDED.calibration, set_at = EXCLUDED.set_at
       RETURNING shop_id, calibration_id)
     SELECT up.shop_id::text AS shop_id, up.calibration_id, old.calibration_id AS previous FROM up LEFT JOIN old USING (shop_id) ORDER BY up.shop_id`,
    [shops, checked.map((c) => c.id), checked.map((c) => JSON.stringify(c))],
  );
  return r.rows.map((x) => ({ shopId: Number(x.shop_id), id: x.calibration_id, previous: x.previous }));
}

/**
 * The stored calibrations of `shops` (all shops when omitted), by SHOP ID ascending; a shop
 * without one is left out. Each is checked again as it is read (a row edited by hand into
 * something else is a TypeError, not a silent prior).
 *
 * @param shops SHOP IDs @default every shop with a calibration
 * @example
 * for (const s of await fleetCalibrations(pool)) console.log(s.shopId, s.id, s.setAt);
 */
export async function fleetCalibrations(pool: Pool, shops?: readonly number[]): Promise<StoredCalibration[]> {
  const r = await pool.query<{ shop_id: string; calibration_id: string; calibration: unknown; set_at: Date }>(
    `SELECT shop_id::text AS shop_id, calibration_id, calibration, set_at FROM footfall_calibrations
     ${shops === undefined ? "" : "WHERE shop_id = ANY($1::bigint[])"} ORDER BY shop_id`,
    shops === undefined ? [] : [[...shops]],
  );
  return r.rows.map((x) => ({ shopId: Number(x.shop_id), id: x.calibration_id, setAt: x.set_at.toISOString(), calibration: stored(x.calibration, Number(x.shop_id)) }));
}

/**
 * The shop's current calibration, or undefined when none is set (the prior from real phones
 * applies): what a job reads once when it starts — one query per job, never per record.
 *
 * @example
 * const c = await shopCalibration(pool, 101);
 * const calibration = c === undefined ? {} : { calibration: [c] }; // analyze options
 */
export async function shopCalibration(pool: Pool, shopId: number): Promise<Calibration | undefined> {
  const r = await pool.query<{ calibration: unknown }>("SELECT calibration FROM footfall_calibrations WHERE shop_id = $1", [shopId]);
  const row = r.rows[0];
  return row === undefined ? undefined : stored(row.calibration, shopId);
}

/**
 * Removes the calibrations of `shops`: their next jobs use the prior again. Returns what was
 * removed (a shop that had none is not in it), by SHOP ID ascending.
 *
 * @example
 * const removed = await clearFleetCalibrations(pool, [999_999]);
 * removed.length; // 0
 */
export async function clearFleetCalibrations(pool: Pool, shops: readonly number[]): Promise<{ shopId: number; id: string }[]> {
  const r = await pool.query<{ shop_id: string; calibration_id: string }>(
    "DELETE FROM footfall_calibrations WHERE shop_id = ANY($1::bigint[]) RETURNING shop_id::text AS shop_id, calibration_id",
    [[...shops]],
  );
  return r.rows.map((x) => ({ shopId: Number(x.shop_id), id: x.calibration_id })).sort((a, b) => a.shopId - b.shopId);
}

/**
 * A stored calibration, checked, in the field order `fitCalibration` writes (jsonb keeps its own
 * order, and `show` prints what a calibration file holds).
 */
function stored(value: unknown, shopId: number): Calibration {
  // Rows stored before format version 3 have no model (one scale), before version 2 no threshold
  // (read as fitted at the learned one): their version is what they hold.
  const row = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  const settings = row["settings"];
  const version = "model" in row ? 3 : typeof settings === "object" && settings !== null && "visitorRssi" in settings ? 2 : 1;
  const c = checkCalibration(value, `footfall_calibrations: shop ${shopId}`, version);
  if (c.shopId !== shopId) throw new TypeError(`footfall_calibrations: the row of shop ${shopId} holds a calibration of shop ${c.shopId}`);
  const { counts } = c;
  return Object.freeze({
    id: c.id,
    shopId: c.shopId,
    start: c.start,
    end: c.end,
    burstsPerMinute: c.burstsPerMinute,
    countedBurstsPerMinute: c.countedBurstsPerMinute,
    logSe: c.logSe,
    dayLogSd: c.dayLogSd,
    personCv: c.personCv,
    universalPersonShare: c.universalPersonShare,
    overdispersion: c.overdispersion,
    counts: { intervals: counts.intervals, dailyCounts: counts.dailyCounts, days: counts.days, personHours: counts.personHours },
    model: c.model,
    settings: { intervalMs: c.settings.intervalMs, timeZone: c.settings.timeZone, visitorRssi: c.settings.visitorRssi },
    trusted: c.trusted,
    warnings: c.warnings,
  });
}
