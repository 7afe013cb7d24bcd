import type { CalibrationRef } from "../kernels/calibration/Calibration.ts";

/**
 * Which people calibration a table row's estimate used, in a few words: its id, `prior` for the
 * prior from real phones, and "(not trusted)" after an id whose use has warnings (they are
 * printed once on stderr and kept whole in the NDJSON lines' `calibration.warnings`). The one
 * wording of every table that shows people: `analyze`'s, `fleet results`' and `fleet status`'.
 *
 * @example
 * calibrationCell(null); // "prior"
 * calibrationCell({ id: "cal-61-0a1b2c3d", start: "2024-03-07T13:00:00.000Z", end: "2024-03-14T19:00:00.000Z", trusted: false, warnings: ["stale: 120 days from the counts it was fitted on"] }); // "cal-61-0a1b2c3d (not trusted)"
 */
export function calibrationCell(calibration: CalibrationRef | null): string {
  if (calibration === null) return "prior";
  return calibration.trusted ? calibration.id : `${calibration.id} (not trusted)`;
}
