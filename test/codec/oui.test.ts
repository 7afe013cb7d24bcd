import ouiData from "oui-data" with { type: "json" };
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { vendorOf } from "../../src/codec/oui.ts";
import { isDecodeError } from "../../src/errors/DecodeError.ts";

// The registry itself, read independently of the code under test, so the expected names
// come from the data, not from vendorOf.
const registry = ouiData as unknown as Record<string, string>;
const firstLine = (key: string): string => registry[key]!.split("\n")[0]!;

describe("vendorOf: known answers", () => {
  it("finds Apple and Samsung 24-bit (MA-L) prefixes", () => {
    expect(firstLine("F01898")).toBe("Apple, Inc.");
    expect(vendorOf("f0:18:98:12:34:56")).toBe("Apple, Inc.");
    expect(firstLine("ACBC32")).toBe("Apple, Inc.");
    expect(vendorOf("AC-BC-32-00-00-01")).toBe("Apple, Inc.");
    expect(firstLine("103047")).toBe("Samsung Electronics Co.,Ltd");
    expect(vendorOf("10:30:47:ab:cd:ef")).toBe("Samsung Electronics Co.,Ltd");
  });

  it("resolves a 28-bit (MA-M) assignment under an 'IEEE Registration Authority' placeholder", () => {
    expect(firstLine("100648")).toBe("IEEE Registration Authority");
    expect(firstLine("1006480")).toBe("FLEXTRONICS TECHNOLOGIES (INDIA) PVT LTD");
    expect(firstLine("1006481")).toBe("KYTRONICS");
    expect(vendorOf("10:06:48:0f:ff:ff")).toBe("FLEXTRONICS TECHNOLOGIES (INDIA) PVT LTD");
    expect(vendorOf("10:06:48:1a:bc:de")).toBe("KYTRONICS");
  });

  it("resolves a 36-bit (MA-S) assignment under an 'IEEE Registration Authority' placeholder", () => {
    expect(firstLine("70B3D5")).toBe("IEEE Registration Authority");
    expect(firstLine("70B3D5001")).toBe("SOREDI touch systems GmbH");
    expect(firstLine("70B3D5002")).toBe("Gogo BA");
    expect(vendorOf("70:b3:d5:00:1f:ff")).toBe("SOREDI touch systems GmbH");
    expect(vendorOf("70:b3:d5:00:20:00")).toBe("Gogo BA");
  });

  it("names the IEEE itself for the 36-bit block it assigned to itself (not a placeholder there)", () => {
    expect(firstLine("70B3D59F3")).toBe("IEEE Registration Authority");
    expect(vendorOf("70:b3:d5:9f:30:00")).toBe("IEEE Registration Authority");
    expect(vendorOf("70:b3:d5:9f:40:00")).toBe(firstLine("70B3D59F4"));
  });

  it("gives no vendor under a placeholder when no longer prefix is assigned", () => {
    expect(registry["70B3D5000"]).toBeUndefined();
    expect(vendorOf("70:b3:d5:00:00:01")).toBeUndefined();
  });

  it("gives no vendor for a locally administered MAC, even where the list has the prefix", () => {
    expect(vendorOf("da:a1:19:00:00:01")).toBeUndefined();
    // 02608C is in the MA-L list (3COM) but has the local bit set.
    expect(firstLine("02608C")).toBe("3COM");
    expect(vendorOf("02:60:8c:00:00:01")).toBeUndefined();
  });

  it("gives no vendor for an unassigned prefix", () => {
    // The first universal unicast 24-bit prefix the registry does not list.
    let prefix = 0;
    const key = (p: number): string => p.toString(16).toUpperCase().padStart(6, "0");
    while (registry[key(prefix)] !== undefined || ((prefix >> 16) & 3) !== 0) prefix++;
    const mac = `${key(prefix).toLowerCase().match(/../g)!.join(":")}:00:00:00`;
    expect(vendorOf(mac)).toBeUndefined();
  });
});

describe("vendorOf: against the registry", () => {
  // A reference lookup written the plain way (string slices), as in oui-data's README. The
  // IEEE's name is a placeholder only on a 24-bit block it subdivided; on a 36-bit block it is
  // the assignee (the IEEE holds one for itself).
  function reference(mac: string): string | undefined {
    const hex = mac.replace(/:/g, "").toUpperCase();
    if ((Number.parseInt(hex[1]!, 16) & 2) !== 0) return undefined;
    for (const len of [9, 7, 6]) {
      const entry = registry[hex.slice(0, len)];
      if (entry !== undefined) {
        const name = entry.split("\n")[0]!.trim();
        if (len > 6 || name !== "IEEE Registration Authority") return name;
      }
    }
    return undefined;
  }
  const keys = Object.keys(registry);
  const keyed = fc.tuple(fc.constantFrom(...keys), fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 12, maxLength: 12 }))
    .map(([key, tail]) => {
      const hex = (key + tail.map((d) => d.toString(16)).join("")).slice(0, 12).toLowerCase();
      return hex.match(/../g)!.join(":");
    });

  it("matches the plain longest-prefix lookup on MACs built from every kind of key", () => {
    fc.assert(fc.property(keyed, (mac) => vendorOf(mac) === reference(mac)), { numRuns: 2000 });
  });

  it("matches it on random MACs too", () => {
    const random = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 6, maxLength: 6 }).map((o) => o.map((x) => x.toString(16).padStart(2, "0")).join(":"));
    fc.assert(fc.property(random, (mac) => vendorOf(mac) === reference(mac)), { numRuns: 2000 });
  });

  it("accepts any layout normalizeMac accepts and throws only DecodeError otherwise", () => {
    expect(vendorOf("F018.9812.3456")).toBe("Apple, Inc.");
    expect(vendorOf("F01898123456")).toBe("Apple, Inc.");
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.jsonValue()), (x) => {
        try {
          vendorOf(x as string);
          return true;
        } catch (error) {
          return isDecodeError(error);
        }
      }),
    );
  });
});
