import { readFile } from "node:fs/promises";
import { CALIBRATION_VERSION, calibrationsByShop, type Calibration, type CalibrationFile } from "../kernels/calibration/Calibration.ts";
import { UsageError } from "./common.ts";

/**
 * Reads `--calibration FILE` (a file `footfall calibrate` wrote): the file's calibrations, each
 * checked; a file that cannot be read, is not JSON or not a calibration file of this version is
 * a {@link UsageError} naming it (exit 2).
 *
 * @example
 * const problem = await calibrationFlag("missing.calibration.json").catch((e: Error) => e.message);
 * problem.startsWith("--calibration missing.calibration.json:"); // true
 */
export async function calibrationFlag(path: string): Promise<CalibrationFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`--calibration ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--calibration ${path}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  let shops: ReadonlyMap<number, Calibration>;
  try {
    shops = calibrationsByShop(value as CalibrationFile);
  } catch (error) {
    throw new UsageError(`--calibration ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { format: "footfall-calibration", version: CALIBRATION_VERSION, shops: [...shops.values()] };
}
