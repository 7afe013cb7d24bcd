import { fakeIo } from "./fakeIo.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "../../src/client/Client.ts";
import { shopCommand } from "../../src/cli/shop.ts";
import { main } from "../../src/cli/main.ts";
import { AmbiguousBrandError } from "../../src/errors/AmbiguousBrandError.ts";
import { startSimulator, type RunningSimulator } from "../../src/sim/service/startSimulator.ts";

const SETTINGS = { FOOTFALL_BASE_URL: "http://svc.test", FOOTFALL_EMAIL: "a@b.test", FOOTFALL_TOKEN: "t" };

describe("footfall shop (usage)", () => {
  it("has full help that explains External Key registration", async () => {
    const { io, text } = fakeIo();
    expect(await main(["shop", "--help"], io)).toBe(0);
    expect(text.out).toContain("usage: footfall shop --brand NAME --key KEY");
    expect(text.out).toMatch(/registered with the service\s+operator/);
    for (const flag of ["--format", "--base-url", "--email", "--token", "Exit status"]) expect(text.out).toContain(flag);
  });

  it.each([
    [["--key", "K"], SETTINGS, /--brand NAME is required/],
    [["--brand", "B"], SETTINGS, /--key KEY .* is required/],
    [["--brand", " ", "--key", "K"], SETTINGS, /--brand NAME is required/],
    [["--brand", "B", "--key", "K"], {}, /missing --base-url/],
    [["--brand", "B", "--key", "K", "--format", "json"], SETTINGS, /--format/],
    [["--brand", "B", "--key", "K", "extra"], SETTINGS, /extra/],
  ])("bad usage %j → exit 2", async (argv, env, message) => {
    const { io, text } = fakeIo(env);
    expect(await main(["shop", ...argv], io)).toBe(2);
    expect(text.err).toMatch(message);
    expect(text.out).toBe("");
  });

  it("an ambiguous brand → exit 1 naming the candidates", async () => {
    const error = new AmbiguousBrandError("mori", [
      { id: 1, name: "Mori" },
      { id: 2, name: "MORI" },
    ]);
    const client = { findBrand: () => Promise.reject(error) } as unknown as Client;
    const { io, text } = fakeIo(SETTINGS);
    expect(await shopCommand({ createClient: () => client }).run(["--brand", "mori", "--key", "K"], io)).toBe(1);
    expect(text.err).toBe(`footfall shop: ${error.message}\n`);
  });
});

describe("footfall shop (simulator)", () => {
  let sim: RunningSimulator;
  let env: Record<string, string>;
  beforeAll(async () => {
    sim = await startSimulator({ seed: 3, world: { shops: 2, visitorsPerDay: 5, passersByPerDay: 10, openingHours: [10, 11] } });
    env = { FOOTFALL_BASE_URL: sim.baseUrl, FOOTFALL_EMAIL: sim.email, FOOTFALL_TOKEN: sim.token };
  });
  afterAll(async () => {
    await sim?.close();
  });

  const shopAndBrand = () => {
    const shop = sim.world.shops[1]!;
    return { shop, brand: sim.world.brands.find((b) => b.id === shop.brandId)! };
  };

  it("ndjson: one {id,name} line; the brand name may differ in case", async () => {
    const { shop, brand } = shopAndBrand();
    const { io, text } = fakeIo(env);
    expect(await main(["shop", "--brand", brand.name.toLowerCase(), "--key", shop.externalKey, "--format", "ndjson"], io)).toBe(0);
    expect(text.out).toBe(`${JSON.stringify({ id: shop.id, name: shop.name })}\n`);
  });

  it("table by default", async () => {
    const { shop, brand } = shopAndBrand();
    const { io, text } = fakeIo(env);
    expect(await main(["shop", "--brand", brand.name, "--key", shop.externalKey], io)).toBe(0);
    const [header, row] = text.out.trimEnd().split("\n");
    expect(header).toMatch(/^\s*id\s+name$/);
    expect(row).toMatch(new RegExp(`^\\s*${shop.id}\\s+${shop.name}$`));
  });

  it("an unknown key → exit 1 with a reminder to register it with the operator", async () => {
    const { brand } = shopAndBrand();
    const { io, text } = fakeIo(env);
    expect(await main(["shop", "--brand", brand.name, "--key", "NEVER-REGISTERED"], io)).toBe(1);
    expect(text.err).toMatch(/^footfall shop: no shop with External Key "NEVER-REGISTERED".*registered with the service operator/);
    expect(text.err.trim().split("\n")).toHaveLength(1);
    expect(text.out).toBe("");
  });

  it("an unknown brand → exit 1 listing the brands the account sees", async () => {
    const { io, text } = fakeIo(env);
    expect(await main(["shop", "--brand", "No Such Brand", "--key", "K"], io)).toBe(1);
    expect(text.err).toMatch(/^footfall shop: no brand named "No Such Brand"; the account sees/);
    for (const b of sim.world.brands) expect(text.err).toContain(JSON.stringify(b.name));
  });
});
