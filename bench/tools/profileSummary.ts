/**
 * Sums a V8 CPU profile (`node --cpu-prof` writes `*.cpuprofile`) by function: the self time of
 * each function (time sampled while it was the one running, not its callees), largest first.
 * That is the question a profile answers for a bench ("where does the time go?"), and DevTools
 * needs a browser to show it.
 *
 * Usage: `npx tsx bench/tools/profileSummary.ts FILE.cpuprofile [TOP]` prints a Markdown table
 * of the TOP (default 25) functions by self time.
 *
 * A tool, not a bench: it lives under bench/tools/ so `npm run bench` does not run it.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The parts of a `.cpuprofile` this tool reads (times in µs).
 *
 * @example
 * const profile = JSON.parse(readFileSync("CPU.cpuprofile", "utf8")) as CpuProfile;
 */
export interface CpuProfile {
  readonly nodes: ReadonlyArray<{
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  }>;
  readonly startTime: number;
  readonly endTime: number;
  /** Node id sampled at each tick. */
  readonly samples: readonly number[];
  /** µs since the previous sample, one per sample. */
  readonly timeDeltas: readonly number[];
}

/**
 * One function's share of a profile.
 *
 * @example
 * const row: SelfTime = { name: "parse", where: "", selfMs: 1500, share: 0.28 };
 */
export interface SelfTime {
  /** Function name (`(anonymous)` when it has none, or V8's `(garbage collector)` …). */
  readonly name: string;
  /** Where it is defined: file name and 1-based line, or `""` for V8's own entries. */
  readonly where: string;
  /** Self time, ms. */
  readonly selfMs: number;
  /** Self time as a share of the profile's sampled time, 0–1. */
  readonly share: number;
}

/**
 * Self time per function (same name at the same place summed over every call path), largest
 * first. A sample's time is the delta to the next sample, as DevTools counts it.
 *
 * @example
 * const rows = profileSummary(JSON.parse(readFileSync("CPU.cpuprofile", "utf8")) as CpuProfile);
 * rows[0]?.name; // e.g. "parse"
 */
export function profileSummary(profile: CpuProfile): SelfTime[] {
  const keyOf = new Map<number, string>();
  const label = new Map<string, { name: string; where: string }>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url === "" ? "" : url.slice(url.lastIndexOf("/") + 1);
    const where = file === "" ? "" : `${file}:${lineNumber + 1}`;
    const name = functionName === "" ? "(anonymous)" : functionName;
    const key = `${name}\u0000${where}`;
    keyOf.set(node.id, key);
    label.set(key, { name, where });
  }
  const micros = new Map<string, number>();
  let total = 0;
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    // Delta i is the time *before* sample i; the time spent in sample i is the next delta.
    const dt = i + 1 < timeDeltas.length ? timeDeltas[i + 1]! : 0;
    const key = keyOf.get(samples[i]!);
    if (key === undefined) continue;
    micros.set(key, (micros.get(key) ?? 0) + dt);
    total += dt;
  }
  return [...micros]
    .map(([key, us]) => ({ ...label.get(key)!, selfMs: us / 1000, share: total === 0 ? 0 : us / total }))
    .sort((a, b) => b.selfMs - a.selfMs);
}

/**
 * The top `top` rows of {@link profileSummary} as a Markdown table, with the total sampled time.
 *
 * @example
 * process.stdout.write(formatProfileSummary(profile, 10));
 */
export function formatProfileSummary(profile: CpuProfile, top = 25): string {
  const rows = profileSummary(profile);
  const totalMs = rows.reduce((sum, r) => sum + r.selfMs, 0);
  const lines = [
    `Sampled ${totalMs.toFixed(0)} ms (wall ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms); top ${Math.min(top, rows.length)} functions by self time:`,
    "",
    "| self ms | share | function | where |",
    "|---:|---:|---|---|",
    ...rows.slice(0, top).map((r) => `| ${r.selfMs.toFixed(0)} | ${(r.share * 100).toFixed(1)} % | ${r.name} | ${r.where} |`),
  ];
  return `${lines.join("\n")}\n`;
}

if (process.argv[1] !== undefined && process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, top] = process.argv.slice(2);
  if (file === undefined) throw new Error("usage: tsx bench/tools/profileSummary.ts FILE.cpuprofile [TOP]");
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  process.stdout.write(formatProfileSummary(profile, top === undefined ? 25 : Number(top)));
}
