import type { BurstYardstick } from "../calibration/burstYardstick.ts";
import type { Calibration, CalibrationRef } from "../calibration/Calibration.ts";

/**
 * How fast a calibration ages: the variance of ln ρ grows by this much per day between the fit's
 * span and the day analysed (persons per randomized MAC moved from ~0.37 to 0.5–0.7 within a year
 * in the Brno lab: ln 1.6 ≈ 0.47 in ~365 days, a random walk of (0.47)²/365 a day).
 */
export const CALIBRATION_DRIFT_PER_DAY = (0.47 * 0.47) / 365;

/** Beyond this many days from its span a calibration is flagged stale (it still applies, widened). */
export const CALIBRATION_STALE_DAYS = 90;

/**
 * The yardstick a calibration gives for a day at `atMs`: ρ̂ with the variance of ln ρ a new day
 * has (standard error² + day-to-day spread τ² + the drift since the fit's span), the drift alone
 * (what its model's interval widens by), and the warnings of this use (its own, `stale` when far
 * from its span, the settings when they differ).
 *
 * @param c the shop's calibration
 * @param atMs the start of the day or interval analysed, epoch ms
 * @param settings the analysis settings in use, and the visit threshold the day was classified at (dBm) when known
 * @example
 * const c = fitCalibration([{ kind: "day", shopId: 61, day: "2024-03-14", start: 0, end: 86_400_000, visitors: 180, knownVisitors: 12, restBursts: 4100, meanDwellMs: 1_500_000, dwellRelVar: 0.02 }], { prior: realPhonesPrior, settings: { intervalMs: 900_000, timeZone: "Europe/Prague" } })[0]!;
 * const { yardstick, ref } = calibratedYardstick(c, Date.parse("2024-03-21T00:00:00+01:00"), { intervalMs: 900_000, timeZone: "Europe/Prague" });
 * ref.id === c.id; // true
 */
export function calibratedYardstick(
  c: Calibration,
  atMs: number,
  settings: { readonly intervalMs: number; readonly timeZone: string; readonly visitorRssi?: number | "auto" },
): { yardstick: BurstYardstick; ref: CalibrationRef; driftLogVariance: number } {
  const away = atMs < c.start ? c.start - atMs : atMs > c.end ? atMs - c.end : 0;
  const ageDays = away / 86_400_000;
  const warnings = [...c.warnings];
  if (ageDays > CALIBRATION_STALE_DAYS) warnings.push(`stale: ${Math.round(ageDays)} days from the counts it was fitted on`);
  if (settings.intervalMs !== c.settings.intervalMs) warnings.push(`fitted with ${c.settings.intervalMs / 60_000}-min intervals, used with ${settings.intervalMs / 60_000}-min ones`);
  if (settings.timeZone !== c.settings.timeZone) warnings.push(`fitted in time zone ${c.settings.timeZone}, used in ${settings.timeZone}`);
  const fitted = c.settings.visitorRssi;
  if (fitted !== "auto" && typeof settings.visitorRssi === "number" && Math.abs(settings.visitorRssi - fitted) > 0.05) {
    warnings.push(`fitted at a visit threshold of ${fitted} dBm, used at ${settings.visitorRssi} dBm`);
  }
  const logVariance = c.logSe * c.logSe + c.dayLogSd * c.dayLogSd + CALIBRATION_DRIFT_PER_DAY * ageDays;
  return {
    yardstick: {
      burstsPerMinute: c.burstsPerMinute,
      logVariance,
      // The day-to-day spread rests on the counted days and on its prior, worth two days (fitCalibration).
      df: c.counts.days + 1,
      personCv: c.personCv * Math.sqrt(c.overdispersion),
      universalPersonShare: c.universalPersonShare,
    },
    ref: { id: c.id, start: new Date(c.start).toISOString(), end: new Date(c.end).toISOString(), method: c.model === null ? "scale" : "model", trusted: c.trusted && warnings.length === c.warnings.length, warnings },
    driftLogVariance: CALIBRATION_DRIFT_PER_DAY * ageDays,
  };
}
