import { describe, expect, it } from "vitest";
import { ProfilePool } from "../../../src/sim/phones/ProfilePool.ts";
import { realPhoneCaptures } from "../../../src/sim/phones/realPhoneCaptures.ts";
import { createRng } from "../../../src/sim/random/prng.ts";

// A phone then one of its modes: each capture's chance is 1 ÷ (phones × that phone's captures).
const modes = new Map<string, number>();
for (const c of realPhoneCaptures) modes.set(c.device, (modes.get(c.device) ?? 0) + 1);
const chance = (device: string): number => 1 / (modes.size * modes.get(device)!);

describe("ProfilePool", () => {
  const pool = new ProfilePool("all");

  it("holds every capture; its universal share is the captures', a phone then a mode at a time", () => {
    expect(pool.profiles).toHaveLength(realPhoneCaptures.length);
    expect(pool.devices).toHaveLength(modes.size);
    const share = realPhoneCaptures.reduce((a, c) => a + (c.universal ? chance(c.device) : 0), 0);
    expect(pool.universalShare).toBeCloseTo(share, 12);
  });

  it("draws a class's captures by those chances: a phone captured in six modes is no commoner than one in three", () => {
    const rng = createRng(52);
    for (const universal of [true, false]) {
      const counts = new Map<string, number>();
      const n = 60_000;
      let wrongClass = 0;
      for (let i = 0; i < n; i++) {
        const p = pool.draw(rng, universal);
        if (p.universal !== universal) wrongClass++;
        counts.set(p.id, (counts.get(p.id) ?? 0) + 1);
      }
      expect(wrongClass).toBe(0);
      const klass = realPhoneCaptures.filter((c) => c.universal === universal);
      const total = klass.reduce((a, c) => a + chance(c.device), 0);
      for (const c of klass) {
        const expected = (n * chance(c.device)) / total;
        const got = counts.get(`${c.device}-${c.mode}`) ?? 0;
        expect(Math.abs(got - expected), `${c.device}-${c.mode}`).toBeLessThan(5 * Math.sqrt(expected) + 1);
      }
    }
  });

  it("drawOf: one of a phone's captures, each alike", () => {
    const rng = createRng(3);
    const seen = new Map<string, number>();
    for (let i = 0; i < 6_000; i++) {
      const p = pool.drawOf(rng, "B");
      seen.set(p.id, (seen.get(p.id) ?? 0) + 1);
    }
    expect([...seen.keys()].every((id) => id.startsWith("B-"))).toBe(true);
    expect(seen.size).toBe(modes.get("B"));
    for (const n of seen.values()) expect(Math.abs(n - 1000)).toBeLessThan(150);
  });

  it("selects by phone label and by capture id, and refuses what names no capture", () => {
    const some = new ProfilePool(["C", "X-PA"]);
    expect(some.profiles.map((p) => p.id)).toEqual([...realPhoneCaptures.filter((c) => c.device === "C").map((c) => `C-${c.mode}`), "X-PA"]);
    expect(some.devices).toEqual(["C", "X"]);
    // C's captures all used its universal MAC: half the phones, so half the chance.
    expect(some.universalShare).toBeCloseTo(0.5, 12);
    expect(() => new ProfilePool(["Z"])).toThrow(RangeError);
    expect(() => new ProfilePool(["B-Q"])).toThrow(RangeError);
    expect(() => new ProfilePool([])).toThrow(RangeError);
    expect(() => new ProfilePool(["X-PA"]).draw(createRng(1), true)).toThrow(RangeError);
  });
});
