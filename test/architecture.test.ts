import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, normalize, relative, dirname } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * DESIGN.md's import rules: imports flow one way, kernels are pure (no rxjs, no I/O), the
 * simulator never sees the client, and nothing imports the CLI. Read from the sources, so a
 * new file that breaks a rule fails here rather than in review.
 */
const SRC = join(import.meta.dirname, "..", "src");

/** Areas each area may import (besides itself). */
const ALLOWED: Record<string, readonly string[]> = {
  contract: [],
  errors: [],
  // Calendar dates and time zones: pure helpers the kernels, the sales path and the simulator share.
  time: [],
  // Text in chunks → lines: the one line reader of the CLI, the sales path and the codec.
  text: [],
  codec: ["contract", "errors", "text"],
  kernels: ["codec", "contract", "errors", "time"],
  operators: ["kernels", "codec", "contract", "errors"],
  // The batch path over the operators' kernels, its NDJSON lines (what analyze prints and the
  // fleet stores), their small-count suppression and the second-reading rule: src/analysis/.
  analysis: ["kernels", "codec", "contract", "errors", "time"],
  client: ["contract", "errors"],
  source: ["client", "codec", "contract", "errors", "text"],
  sales: ["client", "contract", "errors", "time", "text"],
  sim: ["contract", "codec", "errors", "time", "text"],
  report: ["kernels", "codec", "contract", "errors", "time"],
  // Keyed pseudonyms of MACs (node:crypto HMAC): what every writer puts where a device goes.
  privacy: ["errors"],
  // Scale-out runs the same pipeline: source → analyze → the same lines, stored in PostgreSQL.
  fleet: ["analysis", "source", "kernels", "operators", "client", "codec", "contract", "errors", "time"],
  // Counted people (truth CSV files) for calibrations: read like sales files, no analytics.
  truth: ["errors", "time"],
  // Fitting a calibration (src/calibrate.ts): analyse, pair with the counted truth, fit.
  calibrate: ["analysis", "truth", "kernels", "codec", "contract", "errors", "time"],
  // Reading a signal file as the CLI does (gzip, decode threads) into an analysis: src/file/. Its
  // decode threads also hash the output's pseudonyms once they have no range left (privacy).
  file: ["analysis", "codec", "contract", "errors", "text", "privacy"],
  // The demo application (src/demo/): the simulator, the service client and the whole pipeline, no CLI.
  demo: ["analysis", "calibrate", "client", "codec", "contract", "errors", "kernels", "operators", "report", "sales", "sim", "source", "text", "time", "truth", "privacy"],
};

/** Packages an area must not import. */
const FORBIDDEN_PACKAGES: Record<string, RegExp> = {
  kernels: /^(rxjs|node:)/,
  time: /^(rxjs|node:)/,
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

function areaOf(file: string): string {
  const rel = relative(SRC, file).split(/[\\/]/);
  return rel.length > 1 ? rel[0]! : rel[0]!.replace(/\.ts$/, "");
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

const edges = sourceFiles(SRC).flatMap((file) =>
  [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) => {
    const spec = (m[1] ?? m[2])!;
    const target = spec.startsWith(".") ? areaOf(normalize(join(dirname(file), spec))) : undefined;
    return { file: relative(SRC, file), from: areaOf(file), spec, target };
  }),
);

describe("architecture (DESIGN.md import rules)", () => {
  it("reads the sources it checks", () => {
    expect(edges.some((e) => e.from === "kernels")).toBe(true);
    expect(edges.some((e) => e.from === "cli")).toBe(true);
  });

  it.each(Object.keys(ALLOWED))("%s imports only the areas it may", (area) => {
    const bad = edges
      .filter((e) => e.from === area && e.target !== undefined && e.target !== area && !ALLOWED[area]!.includes(e.target))
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
