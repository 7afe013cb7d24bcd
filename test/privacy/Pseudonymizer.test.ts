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

  it("adopts the pseudonyms a copy computed once ready, and drops a batch made with another key whole", async () => {
    const p = new Pseudonymizer({ key, bytes: 12 });
    const copy = new Pseudonymizer(p.copyOptions());
    const devices = Array.from({ length: 50 }, (_, i) => `a4:5e:60:00:00:${i.toString(16).padStart(2, "0")}`);
    const other = new Pseudonymizer({ key: Buffer.alloc(16, 9), bytes: 12 });
    let arrive: (batch: { devices: string[]; pseudonyms: string[] }) => void = () => {};
    p.adopt(new Promise((resolve) => (arrive = resolve)));
    p.adopt(Promise.resolve({ devices: ["b8:27:eb:00:00:01", "b8:27:eb:00:00:02"], pseudonyms: ["b8:27:eb:00:00:01", "b8:27:eb:00:00:02"].map((d) => other.pseudonym(d)) }));
    p.adopt(Promise.reject(new Error("the thread died")));
    p.adopt(Promise.resolve(undefined));
    const ready = p.ready();
    arrive({ devices, pseudonyms: devices.map((d) => copy.pseudonym(d)) });
    await ready;
    // The good batch is held (the first device hashed here to check it), the foreign one only its
    // checked first device, hashed here; the failed and missing ones nothing.
    expect(p.computed).toBe(devices.length + 1);
    const fresh = new Pseudonymizer({ key, bytes: 12 });
    for (const d of [...devices, "b8:27:eb:00:00:01", "b8:27:eb:00:00:02"]) expect(p.pseudonym(d)).toBe(fresh.pseudonym(d));
    expect(() => new Pseudonymizer({ key, rotation: "daily" }).adopt(Promise.resolve(undefined))).toThrow(/rotation/);
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
