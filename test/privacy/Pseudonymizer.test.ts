import { createHmac } from "node:crypto";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { Pseudonymizer } from "../../src/privacy/Pseudonymizer.ts";

const key = Buffer.from("000102030405060708090a0b0c0d0e0f", "hex");
const mac = "a4:5e:60:12:34:56";

describe("Pseudonymizer", () => {
  it("is HMAC-SHA-256(key, MAC) truncated to 16 bytes, the same for every textual form of the MAC", () => {
    const p = new Pseudonymizer({ key });
    const expected = createHmac("sha256", key).update(mac).digest("hex").slice(0, 32);
    for (const form of [mac, "A4:5E:60:12:34:56", "a4-5e-60-12-34-56", "a45e60123456", "A45E60123456"]) expect(p.pseudonym(form)).toBe(expected);
    expect(new Pseudonymizer({ key }).pseudonym(mac)).toBe(expected);
    expect(new Pseudonymizer({ key: Buffer.alloc(16, 9) }).pseudonym(mac)).not.toBe(expected);
    expect(new Pseudonymizer({ key, bytes: 8 }).pseudonym(mac)).toBe(expected.slice(0, 16));
  });

  it("hashes each device once per instance (per output), not once per record", () => {
    const p = new Pseudonymizer({ key });
    for (let i = 0; i < 1000; i++) p.pseudonym(i % 2 === 0 ? mac : "a4:5e:60:00:00:01");
    expect(p.computed).toBe(2);
  });

  it("a copy from copyOptions gives the same pseudonyms, with either rotation", () => {
    for (const rotation of ["none", "daily"] as const) {
      const p = new Pseudonymizer({ key, rotation, bytes: 12 });
      const copy = new Pseudonymizer(p.copyOptions());
      for (let i = 0; i < 50; i++) {
        const device = `a4:5e:60:00:00:${i.toString(16).padStart(2, "0")}`;
        expect(copy.pseudonym(device, "2026-11-16")).toBe(p.pseudonym(device, "2026-11-16"));
      }
    }
  });

  it("daily rotation: a key per local day, so one device differs across days and not within one", () => {
    const p = new Pseudonymizer({ key, rotation: "daily" });
    const monday = p.pseudonym(mac, "2026-11-16");
    expect(p.pseudonym(mac, "2026-11-16")).toBe(monday);
    expect(p.pseudonym(mac, "2026-11-17")).not.toBe(monday);
    const dayKey = createHmac("sha256", key).update("2026-11-16").digest();
    expect(monday).toBe(createHmac("sha256", dayKey).update(mac).digest("hex").slice(0, 32));
    expect(monday).not.toBe(new Pseudonymizer({ key }).pseudonym(mac));
    expect(() => p.pseudonym(mac)).toThrow(RangeError);
  });

  it("never shows its key (JSON, inspect) and validates its options eagerly", () => {
    const p = new Pseudonymizer({ key });
    const hex = key.toString("hex");
    expect(JSON.stringify(p)).not.toContain(hex);
    expect(inspect(p, { showHidden: true, depth: 5 })).not.toContain(hex);
    expect(inspect(p, { showHidden: true, depth: 5 })).not.toMatch(/<Buffer 00 01 02/);
    expect(() => new Pseudonymizer({ key: Buffer.alloc(15) })).toThrow(RangeError);
    expect(() => new Pseudonymizer({ key, rotation: "hourly" as "daily" })).toThrow(RangeError);
    expect(() => new Pseudonymizer({ key, bytes: 4 })).toThrow(RangeError);
  });
});
