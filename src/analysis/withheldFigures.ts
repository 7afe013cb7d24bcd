import type { AnalysisRecord } from "./AnalysisRecord.ts";
import { ANALYSIS_LINES } from "./analysisLines.ts";
import { suppressSmallCounts } from "./suppressSmallCounts.ts";

/**
 * What `--min-count` did to one figure of a line: `"kept"`, `"withheld"` (a count from 1 to K − 1,
 * shown as `"<K"`) or `"blank"` (a figure computed from a withheld count, shown empty).
 *
 * @example
 * const state: FigureState = "withheld";
 */
export type FigureState = "kept" | "withheld" | "blank";

/**
 * One line after the small-count rule, for a writer that shows its figures in columns of its own
 * (the `analyze` table, the demo's `daily.csv`): the suppressed line, the state of each figure by
 * its path in the line, and whether the line's people figures were withheld (so a figure the
 * writer computes from them, such as a conversion rate, goes with them).
 *
 * @example
 * const w = withheldFigures({ type: "summary", visitors: 3, uniqueDevices: 40, captureRate: 0.1 }, 5);
 * w.state(["visitors"]); // "withheld"
 */
export interface WithheldFigures {
  /** The line as the NDJSON writes it (`suppressSmallCounts`). */
  readonly line: AnalysisRecord;
  /** The state of the figure at `path` (`["dwell", "medianMs"]`). */
  state(path: readonly string[]): FigureState;
  /** The figure at `path` in the suppressed line (`undefined` where the line has none). */
  value(path: readonly string[]): unknown;
  /** Whether a count the line's derived figures depend on (visitors, devices) was withheld. */
  readonly peopleWithheld: boolean;
}

/**
 * The small-count rule (`suppressSmallCounts`, from the line's entry in `ANALYSIS_LINES`) applied
 * to `line` and read back figure by figure: the one rule, so a table or CSV withholds exactly what
 * the NDJSON line withholds. `minCount` ≤ 1 keeps everything.
 *
 * @example
 * const w = withheldFigures({ type: "summary", visitors: 3, uniqueDevices: 40, captureRate: 0.1 }, 5);
 * w.state(["captureRate"]); // "blank"
 * w.peopleWithheld; // true
 */
export function withheldFigures(line: AnalysisRecord, minCount: number): WithheldFigures {
  const suppressed = suppressSmallCounts(line, minCount);
  const kind = ANALYSIS_LINES.find((l) => l.type === line.type);
  const state = (path: readonly string[]): FigureState => {
    if (suppressed === line) return "kept";
    const before = at(line, path);
    if (before === null || before === undefined || at(suppressed, path) !== null) return "kept";
    return isCount(path) ? "withheld" : "blank";
  };
  const isCount = (path: readonly string[]): boolean =>
    kind?.counts.some(({ path: p, group }) => p.length === path.length - 1 && p.every((k, i) => path[i] === k) && (group.counts === "all" || group.counts.includes(path[p.length]!))) ?? false;
  // The line's own triggers: the top-level group's (visitors, unique devices).
  const triggers = kind?.counts.find((c) => c.path.length === 0)?.group;
  const peopleWithheld = triggers !== undefined && triggers.counts !== "all" && (triggers.triggers ?? []).some((t) => state([t]) === "withheld");
  return { line: suppressed, state, value: (path) => at(suppressed, path), peopleWithheld };
}

function at(line: AnalysisRecord, path: readonly string[]): unknown {
  let value: unknown = line;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
