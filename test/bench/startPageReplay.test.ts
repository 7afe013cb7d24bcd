import { lastValueFrom, toArray } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPageReplay, type PageReplay } from "../../bench/tools/startPageReplay.ts";
import { createClient } from "../../src/client/createClient.ts";
import { createSimHandler, type SimHandler } from "../../src/sim/service/createSimHandler.ts";
import { signals } from "../../src/source/signals.ts";

// The fleet bench's workers read pages through this replay: it must give them exactly what the
// simulator would, and ask the simulator only for pages it has not seen.
describe("startPageReplay", () => {
  let sim: SimHandler;
  let replay: PageReplay;
  beforeAll(async () => {
    sim = createSimHandler({ seed: 5, world: { shops: 1, openingHours: [10, 12] } });
    replay = await startPageReplay(sim);
  });
  afterAll(() => replay.close());

  const read = async (): Promise<unknown[]> => {
    const client = createClient({ baseUrl: replay.signalUrl, signalUrl: replay.signalUrl, email: replay.email, token: replay.token });
    const shop = sim.world.shops[0]!;
    return lastValueFrom(signals(client, { shopId: shop.id, since: sim.world.startMs, until: sim.world.endMs }).pipe(toArray()));
  };

  it("serves the simulator's records, then the same ones from memory without asking it again", async () => {
    const direct = createClient({ baseUrl: "http://sim", signalUrl: "http://sim", email: sim.email, token: sim.token, fetch: sim.fetch });
    const shop = sim.world.shops[0]!;
    const expected = await lastValueFrom(signals(direct, { shopId: shop.id, since: sim.world.startMs, until: sim.world.endMs }).pipe(toArray()));
    expect(expected.length).toBeGreaterThan(200);

    const first = await read();
    const recorded = replay.stats();
    expect(first).toEqual(expected);
    expect(recorded.pages).toBeGreaterThan(1);
    expect(recorded.replayed).toBe(0);

    const second = await read();
    const after = replay.stats();
    expect(second).toEqual(expected);
    expect(after.forwarded).toBe(recorded.forwarded);
    expect(after.replayed).toBe(recorded.forwarded);
  });

  it("refuses a recorded page to a wrong token, as the simulator does, and never records an error", async () => {
    const shop = sim.world.shops[0]!;
    const url = `${replay.signalUrl}/api/v1/shops/${shop.id}/wifi_signals?limit=200`;
    const good = await fetch(url, { headers: { "x-user-email": replay.email, "x-user-token": replay.token } });
    expect(good.status).toBe(200);
    const pages = replay.stats().pages;
    const bad = await fetch(url, { headers: { "x-user-email": replay.email, "x-user-token": "wrong" } });
    expect(bad.status).toBe(401);
    await bad.text();
    const unknown = await fetch(`${replay.signalUrl}/api/v1/shops/999999/wifi_signals`, { headers: { "x-user-email": replay.email, "x-user-token": replay.token } });
    expect(unknown.status).toBe(404);
    await unknown.text();
    expect(replay.stats().pages).toBe(pages);
  });
});
