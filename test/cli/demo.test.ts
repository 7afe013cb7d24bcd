import { mkdtemp, rm } from "node:fs/promises";
import { fakeIo } from "./fakeIo.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/cli/common.ts";
import { command, parseDemoFlags } from "../../src/cli/demo.ts";
import { main } from "../../src/cli/main.ts";
import { defaultDemoOptions } from "../../src/demo/DemoOptions.ts";
import { demoTimeline } from "../../src/demo/demoTimeline.ts";

// `footfall demo` as a command: its flags, help and bad usage. The demo itself is tested in
// test/demo/, as src/demo/ holds it.

describe("footfall demo flags", () => {
  it("has defaults that make a one-minute day of the default world, with the phones' MACs rotating as in real shops", () => {
    const o = parseDemoFlags([]);
    expect(o).toEqual({ ...defaultDemoOptions, world: {} });
    expect(o.rotation).toBe("realistic");
    const t = demoTimeline({ dayStartMs: 0, dayEndMs: 24 * 3_600_000, openMs: o.hours[0] * 3_600_000, closeMs: o.hours[1] * 3_600_000, speed: o.speed });
    expect(t.realDurationMs).toBeGreaterThan(45_000);
    expect(t.realDurationMs).toBeLessThan(75_000);
  });

  it("reads every flag", () => {
    expect(parseDemoFlags(["--seed", "7", "--shops", "2", "--speed", "3000", "--hours", "9.5-13", "--out", "x", "--rotation", "off"])).toEqual({
      seed: 7,
      shops: 2,
      speed: 3000,
      hours: [9.5, 13],
      out: "x",
      rotation: "off",
      world: {},
    });
    expect(parseDemoFlags(["--seed", "demo"]).seed).toBe("demo");
    expect(parseDemoFlags(["--rotation", "0.6"]).rotation).toBe(0.6);
  });

  it("takes the world file's rotation when the flag is not given, and the flag over it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "footfall-demo-flags-"));
    try {
      const world = join(dir, "world.json");
      await (await import("node:fs/promises")).writeFile(world, JSON.stringify({ rotation: "off" }));
      expect(parseDemoFlags(["--world", world]).rotation).toBe("off");
      expect(parseDemoFlags(["--world", world, "--rotation", "realistic"]).rotation).toBe("realistic");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [["--shops", "0"], /--shops must be an integer from 1 to 50/],
    [["--shops", "two"], /--shops must be a number/],
    [["--speed=-5"], /--speed must be a number above 0/],
    [["--speed", "-5"], /--speed must be a number above 0/],
    [["--hours", "22-10"], /--hours must be OPEN-CLOSE/],
    [["--hours", "10"], /--hours must be OPEN-CLOSE/],
    [["--out", ""], /--out must not be empty/],
    [["--world", "/nonexistent/world.json"], /--world: cannot read/],
    [["--rotation", "always"], /--rotation must be off, realistic or a share from 0 to 1/],
    [["--bogus"], /bogus/],
    [["stray"], /stray/],
  ])("bad usage %j → exit 2 with one line", async (argv, message) => {
    expect(() => parseDemoFlags(argv)).toThrow(UsageError);
    const { io, text } = fakeIo();
    expect(await main(["demo", ...argv], io)).toBe(2);
    expect(text.err).toMatch(message);
    expect(text.err.trim().split("\n")).toHaveLength(1);
    expect(text.out).toBe("");
  });

  it("has full help", async () => {
    const { io, text } = fakeIo();
    expect(await main(["demo", "--help"], io)).toBe(0);
    for (const flag of ["--seed", "--shops", "--speed", "--hours", "--rotation", "--out", "--world", "report.html", "sessions.ndjson", "daily.csv", "Exit status"]) expect(text.out).toContain(flag);
    expect(command.summary).not.toMatch(/not built/);
  });
});
