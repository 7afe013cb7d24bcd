import { describe, expect, it } from "vitest";
import { createRng, hashSeed } from "../../../src/sim/random/prng.ts";

describe("createRng", () => {
  it("is reproducible per seed and differs between seeds", () => {
    const draw = (seed: number) => {
      const r = createRng(seed);
      return Array.from({ length: 20 }, () => r.uint32());
    };
    expect(draw(1)).toEqual(draw(1));
    expect(draw(1)).not.toEqual(draw(2));
  });

  it("draws within range with sensible moments", () => {
    const r = createRng(hashSeed("moments"));
    const n = 20_000;
    let sum = 0;
    let sq = 0;
    let exp = 0;
    let outOfRange = 0;
    for (let i = 0; i < n; i++) {
      const u = r.next();
      const k = r.int(3, 5);
      if (!(u >= 0 && u < 1) || !(k === 3 || k === 4 || k === 5)) outOfRange++;
      const z = r.normal();
      sum += z;
      sq += z * z;
      exp += r.exponential(2);
    }
    expect(outOfRange).toBe(0);
    expect(Math.abs(sum / n)).toBeLessThan(0.05);
    expect(Math.abs(sq / n - 1)).toBeLessThan(0.05);
    expect(Math.abs(exp / n - 2)).toBeLessThan(0.1);
  });
});

describe("hashSeed", () => {
  it("separates streams by label and is stable", () => {
    expect(hashSeed(1, "shop", 0)).toBe(hashSeed(1, "shop", 0));
    expect(hashSeed(1, "shop", 0)).not.toBe(hashSeed(1, "shop", 1));
    expect(hashSeed("1")).toBe(hashSeed(1));
    expect(Number.isInteger(hashSeed("x")) && hashSeed("x") >= 0 && hashSeed("x") < 2 ** 32).toBe(true);
  });
});
