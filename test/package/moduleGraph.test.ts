import { describe, expect, it } from "vitest";
import { loadedModules } from "./loadedModules.ts";

/**
 * What each entry point loads (docs/architecture.md: importing operators must not load charts, the DOM
 * shim or HTTP servers). Read from a fresh process's module graph, so an import added anywhere
 * in the chain — ours or a dependency's, ESM or CommonJS — fails here.
 */
const PLOT = /[\\/]node_modules[\\/]@observablehq[\\/]plot[\\/]/;
const LINKEDOM = /[\\/]node_modules[\\/]linkedom[\\/]/;
const HTTP = /^node:(http|https|http2|net)$/;
const FS = /^node:fs(\/promises)?$/;

/** The loaded modules that match any of `patterns`. */
function offending(loaded: readonly string[], patterns: readonly RegExp[]): string[] {
  return loaded.filter((url) => patterns.some((p) => p.test(url)));
}

describe("module graph of the entry points", () => {
  it("footfall/operators loads no Plot, linkedom, HTTP server or file system", () => {
    const loaded = loadedModules("src/operators/index.ts");
    // Positive controls: the detector saw the operators and their one runtime dependency.
    expect(loaded.some((url) => url.endsWith("/src/operators/sessionize.ts"))).toBe(true);
    expect(loaded.some((url) => /[\\/]node_modules[\\/]rxjs[\\/]/.test(url))).toBe(true);
    expect(offending(loaded, [PLOT, LINKEDOM, HTTP, FS])).toEqual([]);
    expect(loaded.filter((url) => /\/src\/(sim|report|sales|client|source|cli)\//.test(url))).toEqual([]);
  });

  it("footfall loads no Plot, linkedom, HTTP server, simulator or report", () => {
    const loaded = loadedModules("src/index.ts");
    expect(loaded.some((url) => url.endsWith("/src/analysis/analyze.ts"))).toBe(true);
    expect(offending(loaded, [PLOT, LINKEDOM, HTTP])).toEqual([]);
    expect(loaded.filter((url) => /\/src\/(sim|report|cli)\//.test(url))).toEqual([]);
  });

  it("footfall/sim loads its HTTP adapter but no charts", () => {
    const loaded = loadedModules("src/sim/index.ts");
    // The simulator's node:http adapter is expected here; seeing it shows built-ins are recorded.
    expect(loaded).toContain("node:http");
    expect(offending(loaded, [PLOT, LINKEDOM])).toEqual([]);
  });

  it("footfall/fleet loads BullMQ and pg but no charts, simulator or report", () => {
    const loaded = loadedModules("src/fleet/index.ts");
    expect(loaded.some((url) => /[\\/]node_modules[\\/]bullmq[\\/]/.test(url))).toBe(true);
    expect(offending(loaded, [PLOT, LINKEDOM])).toEqual([]);
    expect(loaded.filter((url) => /\/src\/(sim|report|cli)\//.test(url))).toEqual([]);
  });

  it("a decode thread loads the file reader but not the OUI list, which the engine's thread applies", () => {
    // The list's 5.6 MB of JSON cost a decode thread ~0.2 s of CPU; its signals get their vendors
    // where they are applied. The engine's thread still loads it, which shows it would be seen.
    const OUI = /[\\/]node_modules[\\/]oui-data[\\/]/;
    const thread = loadedModules("src/file/decodeWorker.ts");
    expect(thread.some((url) => url.endsWith("/src/file/RangeReader.ts"))).toBe(true);
    expect(offending(thread, [OUI])).toEqual([]);
    expect(offending(loadedModules("src/file/readInputInThreads.ts"), [OUI])).not.toEqual([]);
  });

  it("a share thread of a device split loads the engine but neither the OUI list nor the classifier's statistics", () => {
    // It builds sessions; vendors and classification are the engine's thread's (see shareWorker.ts).
    const OUI = /[\\/]node_modules[\\/]oui-data[\\/]/;
    const STDLIB = /[\\/]node_modules[\\/]@stdlib[\\/]/;
    const thread = loadedModules("src/file/shareWorker.ts");
    expect(thread.some((url) => url.endsWith("/src/kernels/sessions/EventTimeEngine.ts"))).toBe(true);
    expect(offending(thread, [OUI, STDLIB])).toEqual([]);
    expect(thread.filter((url) => url.endsWith("/src/kernels/visits/VisitClassifier.ts"))).toEqual([]);
  });

  it("reports a leak when an entry reaches the charts and the file system", () => {
    const loaded = loadedModules("test/package/fixtures/leakyEntry.ts");
    const leaks = offending(loaded, [PLOT, LINKEDOM, HTTP, FS]);
    expect(leaks.some((url) => PLOT.test(url))).toBe(true);
    expect(leaks.some((url) => LINKEDOM.test(url))).toBe(true);
    expect(leaks.some((url) => FS.test(url))).toBe(true);
  });
});
