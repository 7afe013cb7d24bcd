import { checkNumberOption } from "../../options/checkNumberOption.ts";
import type { DataQualityReport } from "./dataQuality.ts";

/**
 * The sensors of a data-quality report whose clocks are off from their shop's reference sensor
 * by at least `minMs` (`SensorQuality.clockOffsetMs`), as the `clockOffsetsMs` decode option
 * takes them: by sensor MAC, how far ahead each runs, ms. Within one probe burst the channels a
 * phone visits are up to a second apart, so offsets below a second are the burst, not the clock.
 *
 * @param report a data-quality report of an analysis with sessions (`analyze().quality`)
 * @param minMs smallest offset that counts as a clock that is off, ms (default 1000)
 * @returns sensor MAC → ms ahead (empty when every clock agrees, or too few MACs to tell)
 *
 * @example
 * const offsets = misalignedClocks(result.quality!);
 * if (Object.keys(offsets).length > 0) result = await analyze(records, { decode: { clockOffsetsMs: offsets } });
 */
export function misalignedClocks(report: DataQualityReport, minMs = 1000): Record<string, number> {
  checkNumberOption("minMs", minMs, { min: 0, unit: "ms" });
  const out: Record<string, number> = {};
  for (const s of report.sensors) if (Math.abs(s.clockOffsetMs) >= minMs && s.clockOffsetMs !== 0) out[s.sensor] = s.clockOffsetMs;
  return out;
}
