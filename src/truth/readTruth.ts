import { readFile } from "node:fs/promises";
import { TruthInputError } from "../errors/TruthInputError.ts";
import type { CountedTruth } from "./CountedTruth.ts";
import { mergeTruth } from "./mergeTruth.ts";
import { parseTruth } from "./parseTruth.ts";

/**
 * Reads counted-truth files (`footfall calibrate --truth FILE`, repeatable) and merges them:
 * each file is parsed by {@link parseTruth} (a gzip file, `*.truth.csv.gz`, is unpacked first,
 * recognised by its content rather than its name), then the files are merged by
 * {@link mergeTruth}, so a shop's segments from two files that give different counts for the
 * same moment (or two different counts for the same day) are an error naming both files and
 * lines, while identical rows are kept once.
 *
 * Files are read one after another, in the order given, and the first problem throws a
 * {@link TruthInputError} (`file:line: reason`; line 0 when the file as a whole cannot be read
 * or is not UTF-8 text) before anything is returned, so a caller never calibrates on part of
 * the truth. The CLI maps that error to exit code 2. Source labels are the paths as given. No
 * files give empty truth; whether truth is required is the caller's rule.
 *
 * @example
 * import { writeFileSync } from "node:fs";
 * writeFileSync("a.truth.csv", "shop_id,start,end,people\n61,2024-03-14T13:00:00+01:00,2024-03-14T14:00:00+01:00,12\n");
 * writeFileSync("b.truth.csv", "shop_id,date,visitors\n61,2024-03-14,NaN\n61,2024-03-15,230\n");
 * const truth = await readTruth(["a.truth.csv", "b.truth.csv"]);
 * truth.segments.length; // 1
 * truth.daily[0]!.source; // "b.truth.csv"
 * truth.unknownRows; // 1
 */
export async function readTruth(files: readonly string[]): Promise<CountedTruth> {
  if (!Array.isArray(files) || files.some((f) => typeof f !== "string" || f === "")) {
    throw new TypeError("readTruth: files must be an array of non-empty file paths");
  }
  const parts: CountedTruth[] = [];
  for (const file of files) parts.push(parseTruth(await textOf(file), file));
  return mergeTruth(parts);
}

/** The file's text: gunzipped when it starts with the gzip magic bytes, decoded as strict UTF-8. */
async function textOf(file: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new TruthInputError(file, 0, `cannot read: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    // Loaded only when a file is compressed: zlib is not needed to read plain truth.
    const { gunzipSync } = await import("node:zlib");
    try {
      bytes = gunzipSync(bytes);
    } catch (error) {
      throw new TruthInputError(file, 0, `not a valid gzip file: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  try {
    // fatal: a Latin-1 export would otherwise read with U+FFFD in it and fail later, less clearly.
    // The BOM is left in (ignoreBOM) for parseTruth, which strips it, so one rule decides.
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (error) {
    throw new TruthInputError(file, 0, "not UTF-8 text (save the file as UTF-8 CSV)", { cause: error });
  }
}
