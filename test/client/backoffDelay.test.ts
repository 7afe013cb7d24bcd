import { describe, expect, it } from "vitest";
import { backoffDelay } from "../../src/client/backoffDelay.ts";

const policy = { minTimeout: 500, maxTimeout: 3000, factor: 2, randomize: false };

describe("backoffDelay", () => {
  it("grows by factor up to maxTimeout", () => {
    expect([0, 1, 2, 3, 4].map((n) => backoffDelay(n, policy))).toEqual([500, 1000, 2000, 3000, 3000]);
  });

  it("full jitter scales the ceiling by the random draw", () => {
    const jitter = { ...policy, randomize: true };
    expect(backoffDelay(1, jitter, () => 0)).toBe(0);
    expect(backoffDelay(1, jitter, () => 0.25)).toBe(250);
    expect(backoffDelay(9, jitter, () => 0.999)).toBeLessThanOrEqual(3000);
  });
});
