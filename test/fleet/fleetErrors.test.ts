import { describe, expect, it } from "vitest";
import { FencedCommitError, isFencedCommitError } from "../../src/errors/FencedCommitError.ts";
import { FleetSettingsError, isFleetSettingsError } from "../../src/errors/FleetSettingsError.ts";
import { FootfallError } from "../../src/errors/FootfallError.ts";

describe("fleet error classes", () => {
  it("are FootfallErrors recognised by their own guard only, also across package copies", () => {
    const fenced = new FencedCommitError("day-101-2026-11-16", 1, 2);
    const settings = new FleetSettingsError("--redis", "cannot use redis://:***@h:6379 (ECONNREFUSED)");
    for (const [error, guard, other] of [
      [fenced, isFencedCommitError, isFleetSettingsError],
      [settings, isFleetSettingsError, isFencedCommitError],
    ] as const) {
      expect(error).toBeInstanceOf(FootfallError);
      expect(guard(error)).toBe(true);
      expect(other(error)).toBe(false);
      expect(guard(Object.assign(new Error(error.message), { name: error.name }))).toBe(true);
    }
  });

  it("say what happened", () => {
    const fenced = new FencedCommitError("day-101-2026-11-16", 1, 3);
    expect(fenced.message).toBe("commit of day-101-2026-11-16 refused: claim 1 is stale (now 3)");
    expect(fenced).toMatchObject({ work: "day-101-2026-11-16", epoch: 1, current: 3 });
    expect(new FleetSettingsError("schema", "x").setting).toBe("schema");
  });
});
