import ouiData from "oui-data" with { type: "json" };
import { describe, expect, it } from "vitest";
import { universalPersonWeight } from "../../../src/kernels/phones/universalPersonWeight.ts";
import { LAPTOP_VENDORS, PHONE_VENDORS, SENSOR_VENDORS, STATIONARY_VENDORS } from "../../../src/sim/phones/vendorOuis.ts";

const registry = ouiData as Record<string, string>;

describe("vendor OUIs", () => {
  it.each([...PHONE_VENDORS, ...LAPTOP_VENDORS, ...STATIONARY_VENDORS, ...SENSOR_VENDORS].map((v) => [v.vendor, v] as const))(
    "every %s prefix is assigned to that vendor in oui-data, universal and unicast",
    (_, v) => {
      expect(v.prefixes.length).toBeGreaterThan(0);
      for (const prefix of v.prefixes) {
        expect(prefix).toMatch(/^[0-9a-f]{2}:[0-9a-f]{2}:[0-9a-f]{2}$/);
        const entry = registry[prefix.replaceAll(":", "").toUpperCase()];
        expect(entry?.split("\n")[0]).toBe(v.vendor);
        expect(Number.parseInt(prefix.slice(0, 2), 16) & 0x03).toBe(0);
      }
    },
  );

  it("puts phone makers on phones and module makers on laptops, as the people estimate tells them apart", () => {
    const visit = 20 * 60_000;
    for (const v of PHONE_VENDORS) expect(universalPersonWeight(`${v.prefixes[0]}:00:00:01`, visit, 0.25), v.vendor).toBe(1);
    for (const v of LAPTOP_VENDORS) expect(universalPersonWeight(`${v.prefixes[0]}:00:00:01`, visit, 0.25), v.vendor).toBe(0.25);
  });
});
