import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, normalize, relative, dirname } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The import rules of docs/architecture.md: imports flow one way, kernels are pure (no rxjs, no
 * I/O), the simulator never sees the client, and nothing imports the CLI. A room is a folder of
 * src/ — and, inside `kernels/` and `sim/`, each subfolder (`kernels/people`, `sim/phones`): the
 * rules hold between those rooms too. Read from the sources, so a new file that breaks a rule
 * fails here rather than in review.
 */
const SRC = join(import.meta.dirname, "..", "src");

/** The analysis kernels' rooms, lowest first: each may import only the ones before it. */
const KERNELS = ["kernels/proximity", "kernels/sessions", "kernels/calibration", "kernels/visits", "kernels/phones", "kernels/people", "kernels/quality"] as const;
/** The simulator's rooms, lowest first (`sim` itself: `createWorld`, `buildShop` and the entry point). */
const SIM = ["sim/random", "sim/phones", "sim/world", "sim/people", "sim/truth", "sim", "sim/service"] as const;
const below = (rooms: readonly string[], room: string): string[] => rooms.slice(0, rooms.indexOf(room));
/** Pure helpers every kernel may use. */
const KERNEL_BASE = ["codec", "contract", "errors", "time", "options", "stats"];
const ALL_KERNELS = ["kernels", ...KERNELS];
const ALL_SIM = [...SIM];

/** Rooms each room may import (besides itself). */
const ALLOWED: Record<string, readonly string[]> = {
  contract: [],
  errors: [],
  // Option checks (TypeError/RangeError with the option's name) shared by every area.
  options: [],
  // Numerics no library gives (the rest come from simple-statistics and @stdlib).
  stats: [],
  // Calendar dates and time zones: pure helpers the kernels, the sales path and the simulator share.
  time: [],
  // Text in chunks → lines: the one line reader of the CLI, the sales path and the codec.
  text: [],
  codec: ["contract", "errors", "text"],
  // Each kernel room over the rooms below it (KERNELS) and the pure helpers.
  ...Object.fromEntries(KERNELS.map((room) => [room, [...below(KERNELS, room), ...KERNEL_BASE]])),
  // kernels/sessionStages.ts: the stages after classification, over every kernel room.
  kernels: [...KERNELS, ...KERNEL_BASE],
  operators: [...ALL_KERNELS, "codec", "contract", "errors", "options"],
  // The batch path over the operators' kernels, its NDJSON lines (what analyze prints and the
  // fleet stores), their small-count suppression, the second-reading rule, and the calibration
  // driver (analyse, pair with the counted truth, fit): src/analysis/.
  analysis: [...ALL_KERNELS, "codec", "contract", "errors", "time", "options", "truth"],
  client: ["contract", "errors", "options"],
  source: ["client", "codec", "contract", "errors", "text", "options"],
  sales: ["client", "contract", "errors", "time", "text", "options"],
  // The simulator's rooms, each over those below it; never the client.
  ...Object.fromEntries(SIM.map((room) => [room, [...below(SIM, room), "contract", "codec", "errors", "time", "text", "options"]])),
  report: [...ALL_KERNELS, "codec", "contract", "errors", "time", "options"],
  // Keyed pseudonyms of MACs (node:crypto HMAC): what every writer puts where a device goes.
  privacy: ["errors"],
  // Scale-out runs the same pipeline: source → analyze → the same lines, stored in PostgreSQL; a
  // job's analysis split by device runs on the share threads a file's does (file/ShareThreads).
  fleet: ["analysis", "source", ...ALL_KERNELS, "operators", "client", "codec", "contract", "errors", "time", "options", "file"],
  // Counted people (truth CSV files) for calibrations: read like sales files, no analytics.
  truth: ["errors", "time", "options"],
  // Reading a signal file as the CLI does (gzip, decode threads) into an analysis, and the share
  // threads of a split by device: src/file/. Its decode threads also hash the output's pseudonyms
  // once they have no range left (privacy).
  file: ["analysis", "codec", "contract", "errors", "text", "privacy", "options"],
  // The demo application (src/demo/): the simulator, the service client and the whole pipeline, no CLI.
  demo: ["analysis", "client", "codec", "contract", "errors", ...ALL_KERNELS, "operators", "report", "sales", ...ALL_SIM, "source", "text", "time", "truth", "privacy", "options", "stats"],
};

/** Packages a room must not import. */
const PURE = /^(rxjs|node:)/;
const FORBIDDEN_PACKAGES: Record<string, RegExp> = {
  ...Object.fromEntries(ALL_KERNELS.map((room) => [room, PURE])),
  stats: PURE,
  options: /./,
  time: PURE,
  text: /./,
  codec: /^(rxjs|node:(?!module))/,
  contract: /./,
  errors: /./,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** src/kernels/people/x.ts → "kernels/people"; src/kernels/sessionStages.ts → "kernels"; src/index.ts → "index". */
function areaOf(file: string): string {
  const rel = relative(SRC, file).split(/[\\/]/);
  if (rel.length === 1) return rel[0]!.replace(/\.ts$/, "");
  return (rel[0] === "kernels" || rel[0] === "sim") && rel.length > 2 ? `${rel[0]}/${rel[1]}` : rel[0]!;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

const edges = sourceFiles(SRC).flatMap((file) =>
  [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) => {
    const spec = (m[1] ?? m[2])!;
    const target = spec.startsWith(".") ? areaOf(normalize(join(dirname(file), spec))) : undefined;
    return { file: relative(SRC, file), from: areaOf(file), spec, target };
  }),
);

describe("architecture (docs/architecture.md import rules)", () => {
  it("reads the sources it checks", () => {
    expect(edges.some((e) => e.from === "kernels")).toBe(true);
    expect(edges.some((e) => e.from === "cli")).toBe(true);
  });

  it.each(Object.keys(ALLOWED))("%s imports only the areas it may", (area) => {
    const bad = edges
      // An entry point (sim/index.ts) hands on the names of every room of its area.
      .filter((e) => e.from === area && e.target !== undefined && e.target !== area && !ALLOWED[area]!.includes(e.target))
      .filter((e) => !(e.file.endsWith("index.ts") && e.target!.startsWith(`${area}/`)))
      .map((e) => `${e.file} → ${e.spec}`);
    expect(bad).toEqual([]);
  });

  it.each(Object.keys(FORBIDDEN_PACKAGES))("%s stays pure (no rxjs, no I/O)", (area) => {
    const bad = edges
      .filter((e) => e.from === area && e.target === undefined && FORBIDDEN_PACKAGES[area]!.test(e.spec))
      .map((e) => `${e.file} → ${e.spec}`);
    expect(bad).toEqual([]);
  });

  it("nothing outside the CLI imports the CLI", () => {
    const bad = edges.filter((e) => e.from !== "cli" && e.target === "cli").map((e) => `${e.file} → ${e.spec}`);
    expect(bad).toEqual([]);
  });

  it("date-fns is imported function by function", () => {
    // Its root entry loads every one of its ~250 functions as ES modules: ~100 ms of each start.
    expect(edges.some((e) => e.spec.startsWith("date-fns/"))).toBe(true);
    expect(edges.filter((e) => e.spec === "date-fns").map((e) => e.file)).toEqual([]);
  });
});
