import { describe, expect, it } from "vitest";
import { UsageError, integerFlag, numberFlag, parseFlags, rtsUnitFlag, seedFlag, timeFlag } from "../../src/cli/common.ts";
import { loadCommand } from "../../src/cli/loadCommand.ts";
import { microsRts, millisRts, nanosRts, secondsRts } from "../../src/codec/rts.ts";

describe("flag readers", () => {
  it("rtsUnitFlag: ms by default, the preset codec of each unit, a UsageError for anything else", () => {
    expect(rtsUnitFlag(undefined)).toBe(millisRts);
    expect([rtsUnitFlag("s"), rtsUnitFlag("ms"), rtsUnitFlag("us"), rtsUnitFlag("ns")]).toEqual([secondsRts, millisRts, microsRts, nanosRts]);
    for (const bad of ["", "MS", "µs", "hours"]) expect(() => rtsUnitFlag(bad)).toThrow(UsageError);
  });

  it("timeFlag: a bare date is midnight in the zone the command names; a date-time keeps its offset", () => {
    expect(timeFlag("--since", "2026-11-20", "UTC")).toBe(Date.UTC(2026, 10, 20));
    expect(timeFlag("--since", "2026-11-20", "Asia/Seoul")).toBe(Date.UTC(2026, 10, 19, 15));
    expect(timeFlag("--since", "2026-11-20T09:00:00+09:00", "UTC")).toBe(Date.UTC(2026, 10, 20, 0));
    expect(timeFlag("--since", "2026-11-20T09:00Z", "Asia/Seoul")).toBe(Date.UTC(2026, 10, 20, 9));
    expect(timeFlag("--since", undefined, "UTC")).toBeUndefined();
    // 2026-02-30T10:00Z: an impossible day is refused, not rolled over to March 2.
    for (const bad of ["yesterday", "2026-02-30", "2026-02-30T10:00Z", "2026-11-20T25:00:00Z", "Nov 20 2026", "1969-12-31", ""]) {
      expect(() => timeFlag("--since", bad, "UTC"), bad).toThrow(UsageError);
    }
  });

  it("numberFlag and integerFlag: bounds, and a message naming the flag", () => {
    expect(numberFlag("--speed", "2.5", 0)).toBe(2.5);
    expect(numberFlag("--speed", undefined)).toBeUndefined();
    expect(() => numberFlag("--speed", "fast")).toThrow(/--speed must be a number/);
    expect(() => numberFlag("--speed", "-1", 0)).toThrow(/--speed must be a number in 0/);
    expect(integerFlag("--limit", "200", 1, 200)).toBe(200);
    expect(() => integerFlag("--limit", "201", 1, 200)).toThrow(/--limit must be 1-200/);
    expect(() => integerFlag("--limit", "2.5", 1, 200)).toThrow(/--limit must be an integer/);
    expect(() => integerFlag("--shop", "1e3")).toThrow(/--shop must be an integer/);
  });

  it("seedFlag: digits are a number, other text a string seed, empty is a mistake", () => {
    expect(seedFlag("7")).toBe(7);
    expect(seedFlag("demo")).toBe("demo");
    expect(seedFlag(undefined)).toBeUndefined();
    expect(() => seedFlag(" ")).toThrow(UsageError);
  });
});

describe("parseFlags: a negative number after a flag is its value", () => {
  const options = { "visitor-rssi": { type: "string" }, shop: { type: "string" }, input: { type: "string", multiple: true }, "pool-days": { type: "boolean" } } as const;

  it("reads `--flag -70` as `--flag=-70`, for every spelling of a negative number", () => {
    for (const value of ["-70", "-65.5", "-.5", "-1e3", "-0", "-2.", "-1E-2"]) {
      expect(parseFlags(["--visitor-rssi", value], options).values["visitor-rssi"], value).toBe(value);
      expect(parseFlags(["--visitor-rssi", value], options).values).toEqual(parseFlags([`--visitor-rssi=${value}`], options).values);
    }
    // A repeatable flag collects each.
    expect(parseFlags(["--input", "-1", "--input", "a.ndjson"], options).values.input).toEqual(["-1", "a.ndjson"]);
  });

  it("leaves everything else to util.parseArgs: a flag after a flag, a boolean, an unknown flag, after --", () => {
    // A flag is not a value: `--shop --visitor-rssi` is still a mistake, as are dashes that are no number.
    for (const argv of [["--shop", "--visitor-rssi", "-70"], ["--visitor-rssi", "-x"], ["--visitor-rssi", "--"], ["--visitor-rssi", "-70-60"], ["--pool-days", "-70"], ["--nope", "-70"], ["--visitor-rssi"]]) {
      expect(() => parseFlags(argv, options), JSON.stringify(argv)).toThrow(UsageError);
    }
    // A value taken the usual way is skipped whole, so a value that looks like a flag name is no flag.
    expect(parseFlags(["--shop", "visitor-rssi", "--visitor-rssi", "-3"], options).values).toEqual({ shop: "visitor-rssi", "visitor-rssi": "-3" });
    // After `--` everything is a positional, as util.parseArgs has it.
    expect(parseFlags(["--", "--visitor-rssi", "-70"], options, true).positionals).toEqual(["--visitor-rssi", "-70"]);
  });

  // Every flag of every command that takes a number that may be negative (dBm, dB, offsets), as its help shows it.
  it.each([
    ["analyze", ["--input", "day.ndjson", "--visitor-rssi", "-70", "--fallback-rssi", "-65"]],
    ["calibrate", ["--input", "day.ndjson", "--truth", "t.csv", "--out", "c.json", "--visitor-rssi", "-70", "--fallback-rssi", "-65"]],
    ["sim", ["--shadowing-db", "-3", "--start", "-1"]],
    ["demo", ["--seed", "-7"]],
    ["signals", ["backfill", "--shop", "-1", "--limit", "-5"]],
    ["fleet", ["retain", "--retain-days", "-1"]],
    ["worker", ["--concurrency", "-2"]],
    ["sales", ["upload", "x.csv", "--concurrency", "-2"]],
  ])("footfall %s reads `--flag -N` as `--flag=-N`", async (name, argv) => {
    const command = (await loadCommand(name))!;
    expect(() => command.check(argv)).not.toThrow();
    const joined = argv.flatMap((a, i) => (/^-\d/.test(a) ? [] : /^-\d/.test(argv[i + 1] ?? "") ? [`${a}=${argv[i + 1]}`] : [a]));
    expect(() => command.check(joined)).not.toThrow();
    // An unknown flag is bad usage, whatever follows it.
    expect(() => command.check([...argv, "--no-such-flag", "-1"])).toThrow(UsageError);
  });
});
