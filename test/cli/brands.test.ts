import { fakeIo } from "./fakeIo.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "../../src/client/Client.ts";
import type { ClientOptions } from "../../src/client/createClient.ts";
import { brandsCommand, command } from "../../src/cli/brands.ts";
import { main } from "../../src/cli/main.ts";
import { NetworkError } from "../../src/errors/NetworkError.ts";
import { HttpError } from "../../src/errors/HttpError.ts";
import { startSimulator, type RunningSimulator } from "../../src/sim/service/startSimulator.ts";

/** A client whose every method fails the given way (for failures a simulator can't stage quickly). */
function failingClient(error: Error): Client {
  const fail = () => Promise.reject(error);
  return { listBrands: fail, findBrand: fail, getShopByExternalKey: fail, uploadDailySales: fail, getSignalsPage: fail };
}

const SETTINGS = { FOOTFALL_BASE_URL: "http://svc.test", FOOTFALL_EMAIL: "a@b.test", FOOTFALL_TOKEN: "tok-CLI-canary" };

describe("footfall brands (fake client)", () => {
  it("has full help", async () => {
    const { io, text } = fakeIo();
    expect(await main(["brands", "--help"], io)).toBe(0);
    expect(text.out).toContain("usage: footfall brands");
    for (const flag of ["--format", "--base-url", "--email", "--token", "FOOTFALL_TOKEN", "Exit status"]) expect(text.out).toContain(flag);
    expect(command.summary).not.toMatch(/not built/);
  });

  it.each([
    [[], {}, /missing --base-url \(or FOOTFALL_BASE_URL\)/],
    [[], { FOOTFALL_BASE_URL: "http://svc.test", FOOTFALL_EMAIL: "a@b.test" }, /missing --token/],
    [["--format", "csv"], SETTINGS, /--format must be one of table, ndjson/],
    [["--nope"], SETTINGS, /nope/],
    [["--base-url", "svc.test"], SETTINGS, /baseUrl/],
  ])("bad usage %j → exit 2, one line", async (argv, env, message) => {
    const { io, text } = fakeIo(env);
    expect(await main(["brands", ...argv], io)).toBe(2);
    expect(text.err).toMatch(message);
    expect(text.err.trim().split("\n")).toHaveLength(1);
    expect(text.out).toBe("");
  });

  it("needs no signal URL, and takes settings from flags too", async () => {
    let seen: ClientOptions | undefined;
    const cmd = brandsCommand({
      createClient: (options) => {
        seen = options;
        return { ...failingClient(new Error("unused")), listBrands: async () => [{ id: 1, name: "Cafe Mori" }] };
      },
    });
    const { io, text } = fakeIo();
    const status = await cmd.run(["--base-url", "http://x.test", "--email", "e@x.test", "--token", "t", "--format", "ndjson"], io);
    expect(status).toBe(0);
    expect(seen).toMatchObject({ baseUrl: "http://x.test", email: "e@x.test", token: "t" });
    expect(seen?.signalUrl).toBeUndefined();
    expect(text.out).toBe('{"id":1,"name":"Cafe Mori"}\n');
  });

  it("a service failure → exit 1, one line on stderr, nothing on stdout", async () => {
    const error = new NetworkError({ method: "GET", url: "http://svc.test/api/v1/brands", reason: "connect ECONNREFUSED" });
    const cmd = brandsCommand({ createClient: () => failingClient(error) });
    const { io, text } = fakeIo(SETTINGS);
    expect(await cmd.run([], io)).toBe(1);
    expect(text.err).toBe(`footfall brands: ${error.message}\n`);
    expect(text.out).toBe("");
  });

  it("notes retries on stderr", async () => {
    const cmd = brandsCommand({
      createClient: (options) => ({
        ...failingClient(new Error("unused")),
        listBrands: async () => {
          const error = new HttpError({ status: 503, method: "GET", url: "http://svc.test/api/v1/brands", bodyExcerpt: "" });
          options.retry?.onRetry?.({ method: "GET", url: error.url, attempt: 1, retriesLeft: 3, delayMs: 1500, error });
          return [];
        },
      }),
    });
    const { io, text } = fakeIo(SETTINGS);
    expect(await cmd.run([], io)).toBe(0);
    expect(text.err).toContain("HTTP 503; retrying in 1.5 s");
    expect(text.out).toBe("id  name\n");
  });
});

describe("footfall brands (simulator)", () => {
  let sim: RunningSimulator;
  let env: Record<string, string>;
  beforeAll(async () => {
    sim = await startSimulator({ seed: 3, world: { shops: 2, visitorsPerDay: 5, passersByPerDay: 10, openingHours: [10, 11] } });
    env = { FOOTFALL_BASE_URL: sim.baseUrl, FOOTFALL_EMAIL: sim.email, FOOTFALL_TOKEN: sim.token };
  });
  afterAll(async () => {
    await sim?.close();
  });

  it("ndjson: one {id,name} line per brand", async () => {
    const { io, text } = fakeIo(env);
    expect(await main(["brands", "--format", "ndjson"], io)).toBe(0);
    const lines = text.out.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines).toEqual(sim.world.brands.map((b) => ({ id: b.id, name: b.name })));
    expect(text.err).toBe("");
  });

  it("table: a header and a row per brand", async () => {
    const { io, text } = fakeIo(env);
    expect(await main(["brands"], io)).toBe(0);
    const rows = text.out.trimEnd().split("\n");
    expect(rows[0]).toMatch(/^\s*id\s+name$/);
    expect(rows).toHaveLength(sim.world.brands.length + 1);
    for (const b of sim.world.brands) expect(text.out).toContain(b.name);
  });

  it("wrong token → exit 1, says to check the credentials, shows neither secret", async () => {
    const { io, text } = fakeIo({ ...env, FOOTFALL_TOKEN: "tok-WRONG-canary" });
    expect(await main(["brands"], io)).toBe(1);
    expect(text.err).toMatch(/^footfall brands: .*HTTP 401 \(check the e-mail and token\)/);
    expect(text.err.trim().split("\n")).toHaveLength(1);
    expect(text.err).not.toContain("tok-WRONG-canary");
    expect(text.err).not.toContain(sim.email);
    expect(text.out).toBe("");
  });
});
