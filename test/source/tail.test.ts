import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { VirtualTimeScheduler } from "rxjs";
import { signals } from "../../src/source/signals.ts";
import { memoryCursorStore } from "../../src/source/memoryCursorStore.ts";
import type { RawSignal } from "../../src/contract/rawSignal.ts";
import { fakeClient, makeRecord, rtsOf, type FakeRecord } from "./fakeService.ts";
import { advanceTo } from "./virtualTime.ts";

const SHOP = 5;

function at(n: number, visibleFrom: number): FakeRecord {
  return { ...makeRecord(SHOP, n), visibleFrom };
}

describe("tail mode in virtual time", () => {
  for (const sinceMode of ["inclusive", "exclusive"] as const) {
    it(`delivers new data once as it appears and stops polling on unsubscribe (${sinceMode})`, async () => {
      const scheduler = new VirtualTimeScheduler();
      const client = fakeClient([at(10, 0), at(20, 0), at(20, 0)], { sinceMode, now: () => scheduler.now() });
      const got: RawSignal[] = [];
      const subscription = signals(client, {
        shopId: SHOP,
        since: rtsOf(0),
        mode: "tail",
        pollIntervalMs: 1_000,
        scheduler,
      }).subscribe((r) => got.push(r));

      await advanceTo(scheduler, 500);
      expect(got).toHaveLength(3);
      expect(client.requests).toHaveLength(1);

      const later = [at(20, 2_500), at(30, 2_500), at(40, 4_200)];
      client.add(later);
      await advanceTo(scheduler, 3_000);
      expect(got.slice(3)).toEqual([later[0]!.record, later[1]!.record]);
      expect(client.requests).toHaveLength(4); // t = 0, 1000, 2000, 3000

      await advanceTo(scheduler, 5_000);
      expect(got.slice(5)).toEqual([later[2]!.record]);
      const requests = client.requests.length;

      subscription.unsubscribe();
      await advanceTo(scheduler, 60_000);
      expect(client.requests).toHaveLength(requests);
      expect(scheduler.actions.filter((a) => !a.closed)).toHaveLength(0);
      expect(got).toHaveLength(6);
    });
  }

  it("unsubscribing during a request aborts it; during a wait cancels the timer", async () => {
    const scheduler = new VirtualTimeScheduler();
    let hangFrom = Number.POSITIVE_INFINITY;
    const client = fakeClient([at(1, 0)], { sinceMode: "inclusive", now: () => scheduler.now(), hang: (i) => i >= hangFrom });
    const subscription = signals(client, { shopId: SHOP, since: rtsOf(0), mode: "tail", pollIntervalMs: 100, scheduler }).subscribe();
    await advanceTo(scheduler, 250);
    hangFrom = client.requests.length;
    await advanceTo(scheduler, 300);
    expect(client.inFlight()).toBe(1);
    subscription.unsubscribe();
    await advanceTo(scheduler, 400);
    expect(client.inFlight()).toBe(0);
    expect(client.requests.at(-1)?.aborted).toBe(true);
    const count = client.requests.length;
    await advanceTo(scheduler, 10_000);
    expect(client.requests).toHaveLength(count);
  });

  it("a tail without since resumes from its checkpoint, not from now: nothing lost, nothing twice", async () => {
    const scheduler = new VirtualTimeScheduler();
    const client = fakeClient([at(10, 0), at(20, 0)], { sinceMode: "inclusive", now: () => scheduler.now() });
    const checkpoint = memoryCursorStore();
    const got: RawSignal[] = [];
    const tail = () => signals(client, { shopId: SHOP, mode: "tail", pollIntervalMs: 1_000, checkpoint, scheduler }).subscribe((r) => got.push(r));

    const first = tail();
    await advanceTo(scheduler, 500);
    expect(got.map((r) => r.ts)).toEqual([10, 20]);
    first.unsubscribe(); // the process stops…
    const whileDown = [at(30, 600), at(40, 4_000)];
    client.add(whileDown);
    await advanceTo(scheduler, 5_000); // …and restarts long after those records arrived.
    tail();
    await advanceTo(scheduler, 5_500);
    expect(got.map((r) => r.ts)).toEqual([10, 20, 30, 40]);
    expect(got.slice(2)).toEqual(whileDown.map((r) => r.record));
  });

  it("a tail with until completes there", async () => {
    const scheduler = new VirtualTimeScheduler();
    const client = fakeClient([at(1, 0), at(2, 1_500), at(3, 2_500)], { sinceMode: "exclusive", now: () => scheduler.now() });
    const got: RawSignal[] = [];
    let completed = false;
    signals(client, { shopId: SHOP, since: rtsOf(0), until: rtsOf(3), mode: "tail", pollIntervalMs: 1_000, scheduler }).subscribe({
      next: (r) => got.push(r),
      complete: () => (completed = true),
    });
    await advanceTo(scheduler, 2_000);
    expect(got).toHaveLength(2);
    expect(completed).toBe(false);
    await advanceTo(scheduler, 3_000);
    expect(completed).toBe(true);
    expect(got).toHaveLength(2);
  });

  it("settleMs: records reaching the service up to settleMs late are not missed", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ t: fc.integer({ min: 1, max: 3_000 }), late: fc.integer({ min: 0, max: 400 }) }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 200 }),
        fc.constantFrom("inclusive" as const, "exclusive" as const),
        fc.integer({ min: 10, max: 300 }),
        async (items, limit, sinceMode, poll) => {
          const scheduler = new VirtualTimeScheduler();
          // Event time = scheduler time (ms); each record becomes visible `late` ms after it.
          // (From 1 ms: an exclusive service has no `since` below RTS 0, a documented edge.)
          const data = items.map(({ t, late }) => at(t, t + late));
          const client = fakeClient(data, { sinceMode, now: () => scheduler.now() });
          const got: RawSignal[] = [];
          const subscription = signals(client, {
            shopId: SHOP,
            since: 0,
            mode: "tail",
            pollIntervalMs: poll,
            settleMs: 400,
            limit,
            scheduler,
          }).subscribe((r) => got.push(r));
          // Visible by 3400; seen by the next poll; settled 400 later; delivered by the poll after.
          await advanceTo(scheduler, 3_000 + 400 + 400 + 2 * poll + 1);
          subscription.unsubscribe();
          const sorted = [...data].sort((a, b) => (a.rts < b.rts ? -1 : a.rts > b.rts ? 1 : 0));
          expect(got).toEqual(sorted.map((d) => d.record));
        },
      ),
      { numRuns: 40 },
    );
  });

  it("without settleMs the same late record is missed (the property above is not vacuous)", async () => {
    const scheduler = new VirtualTimeScheduler();
    const client = fakeClient([at(1_000, 1_000), at(990, 1_050)], { sinceMode: "inclusive", now: () => scheduler.now() });
    const got: RawSignal[] = [];
    const run = (settleMs: number) =>
      signals(client, { shopId: SHOP, since: 0, mode: "tail", pollIntervalMs: 100, settleMs, scheduler }).subscribe((r) => got.push(r));
    scheduler.frame = 1_000;
    const s0 = run(0);
    await advanceTo(scheduler, 2_000);
    s0.unsubscribe();
    expect(got.map((r) => r.ts)).toEqual([1_000]);
    got.length = 0;
    scheduler.frame = 1_000;
    const s1 = run(100);
    await advanceTo(scheduler, 2_000);
    s1.unsubscribe();
    expect(got.map((r) => r.ts)).toEqual([990, 1_000]);
  });

  it("settleMs does not crawl through a backlog: it looks ahead instead of waiting", async () => {
    const scheduler = new VirtualTimeScheduler();
    const data = Array.from({ length: 1_000 }, (_, i) => at(i * 10, 0));
    const client = fakeClient(data, { sinceMode: "inclusive", now: () => scheduler.now() });
    scheduler.frame = 10_000;
    const got: RawSignal[] = [];
    const subscription = signals(client, {
      shopId: SHOP,
      since: 0,
      mode: "tail",
      limit: 50,
      pollIntervalMs: 1_000,
      settleMs: 2_000,
      scheduler,
    }).subscribe((r) => got.push(r));
    await advanceTo(scheduler, 10_000); // no virtual time passes
    // Newest data is at 9990 ms. Without waiting, the source gets through the backlog to
    // within two settle windows of it, at most two requests per page (a page and a probe).
    const all = data.map((d) => d.record);
    expect(got).toEqual(all.slice(0, got.length));
    expect(got.at(-1)!.ts).toBeGreaterThanOrEqual(9_990 - 2 * 2_000);
    expect(client.requests.length).toBeLessThanOrEqual(2 * Math.ceil(got.length / 25) + 4);
    // Then the service's clock is known to move on: within a few polls everything is settled.
    await advanceTo(scheduler, 14_000);
    subscription.unsubscribe();
    expect(got).toEqual(all);
  });
});
