import { describe, expect, it } from "vitest";
import { asyncScheduler } from "rxjs";
import { millisRts, stepRts } from "../../src/codec/rts.ts";
import { SlicePager, type SlicePagerConfig } from "../../src/source/SlicePager.ts";
import type { SignalPage } from "../../src/source/SignalPage.ts";
import { isContractError } from "../../src/errors/ContractError.ts";
import { fakeClient, makeRecord, rtsOf, type FakeClient, type FakeRecord } from "./fakeService.ts";

const SHOP = 7;

function pager(client: FakeClient, readAhead: boolean, limit = 3, endRts?: string, mode: SlicePagerConfig["mode"] = "backfill"): SlicePager {
  const config: SlicePagerConfig = {
    client,
    shopId: SHOP,
    limit,
    start: { rts: rtsOf(1), delivered: [] },
    endRts,
    mode,
    settleMs: 0,
    codec: millisRts,
    scheduler: asyncScheduler,
    slice: 0,
    readAhead,
  };
  return new SlicePager(config);
}

/** Every page of a backfill (until `done`). */
async function readAll(p: SlicePager, signal: AbortSignal): Promise<SignalPage[]> {
  const pages: SignalPage[] = [];
  for (;;) {
    const page = await p.nextPage(signal);
    pages.push(page);
    if (page.done) return pages;
  }
}

const series = (n: readonly number[]): FakeRecord[] => n.map((k) => makeRecord(SHOP, k));

describe("SlicePager readAhead", () => {
  for (const sinceMode of ["inclusive", "exclusive"] as const) {
    it(`returns the same pages as without it, and sends the next page's request before returning a full page (${sinceMode})`, async () => {
      const data = series([1, 2, 2, 3, 4, 5, 5, 5, 6, 7, 8, 9, 9, 10, 11]);
      const plain = fakeClient(data, { sinceMode });
      const ahead = fakeClient(data, { sinceMode });
      const signal = new AbortController().signal;
      const without = await readAll(pager(plain, false), signal);

      const p = pager(ahead, true);
      const first = await p.nextPage(signal);
      // The page's own request, and the next one's, already out.
      expect(ahead.requests).toHaveLength(2);
      const last = first.records.at(-1)!.row_key.split(":")[1]!;
      expect(ahead.requests[1]!.since).toBe(stepRts(last, -1));
      const rest = await readAll(p, signal);
      const withAhead = [first, ...rest];

      expect(withAhead).toEqual(without);
      expect(withAhead.flatMap((page) => page.records)).toEqual(data.map((d) => d.record));
      // Each request sent ahead was the one its page needed: none was wasted.
      expect(ahead.requests.filter((r) => r.aborted)).toEqual([]);
      expect(ahead.requests.map((r) => [r.since, r.limit])).toEqual(plain.requests.map((r) => [r.since, r.limit]));
      expect(ahead.inFlight()).toBe(0);
    });
  }

  it("sends nothing ahead for a page that reaches the range's end, nor for one that stays at the boundary", async () => {
    const client = fakeClient(series([1, 2, 3, 4, 5, 6]), { sinceMode: "inclusive" });
    const p = pager(client, true, 3, rtsOf(3));
    const page = await p.nextPage(new AbortController().signal);
    expect(page.done).toBe(true);
    expect(client.requests).toHaveLength(1);

    // A full page of one tie group at the boundary: the next request is another one (limit 200).
    const ties = fakeClient(series([1, 1, 1, 1, 2]), { sinceMode: "inclusive" });
    const q = pager(ties, true, 3);
    await q.nextPage(new AbortController().signal);
    await q.nextPage(new AbortController().signal);
    expect(ties.requests.filter((r) => r.aborted)).toEqual([]);
  });

  it("aborts a request sent ahead when the page turns out to need another, or with the caller's signal", async () => {
    // The page's last record is past the boundary, but the page goes backwards before it: the
    // cursor rule refuses it, and its boundary does not move.
    const data: FakeRecord[] = [...series([1, 2]), { ...makeRecord(SHOP, 1), rts: rtsOf(2) }, ...series([3, 4])];
    // Requests sent ahead are answered only when aborted.
    const client = fakeClient(data, { sinceMode: "inclusive", hang: (index) => index % 2 === 1 });
    const controller = new AbortController();
    const p = pager(client, true, 4);
    expect(isContractError(await p.nextPage(controller.signal).catch((e: unknown) => e))).toBe(true);
    expect(client.requests).toHaveLength(2);
    expect(client.inFlight()).toBe(1);
    // Asked again (a caller that retries), the page needs the same request as before, not the one sent ahead.
    expect(isContractError(await p.nextPage(controller.signal).catch((e: unknown) => e))).toBe(true);
    expect(client.requests.map((r) => [r.since, r.aborted])).toEqual([
      [stepRts(rtsOf(1), -1), false],
      [stepRts(rtsOf(3), -1), true],
      [stepRts(rtsOf(1), -1), false],
      [stepRts(rtsOf(3), -1), false],
    ]);
    controller.abort(new Error("stopped"));
    await new Promise((r) => setTimeout(r, 0));
    expect(client.requests[3]!.aborted).toBe(true);
    expect(client.inFlight()).toBe(0);
  });

  for (const sinceMode of ["inclusive", "exclusive"] as const) {
    it(`sends the next page's request as soon as a page's body arrives, before it is parsed (${sinceMode})`, async () => {
      const data = series([1, 2, 2, 3, 4, 5, 5, 5, 6, 7, 8, 9, 9, 10, 11]);
      const plain = fakeClient(data, { sinceMode });
      const bodies = fakeClient(data, { sinceMode, body: true });
      const signal = new AbortController().signal;
      const without = await readAll(pager(plain, false), signal);
      expect(await readAll(pager(bodies, true), signal)).toEqual(without);
      // The first page's body sent the second page's request: two were out when it was handed over.
      expect(bodies.requests[0]!.afterBody).toBe(2);
      expect(bodies.requests.filter((r) => r.aborted)).toEqual([]);
      expect(bodies.requests.map((r) => [r.since, r.limit])).toEqual(plain.requests.map((r) => [r.since, r.limit]));
      expect(bodies.inFlight()).toBe(0);
    });
  }

  it("drops a request guessed from a body whose last row_key is not the page's last record, and sends the right one", async () => {
    const data = series([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // A member after the records that reads like one: the guess from the text is wrong every time.
    const wrong = stepRts(rtsOf(99), -1);
    const misleading = fakeClient(data, {
      sinceMode: "exclusive",
      body: (answer) => JSON.stringify({ ...answer, note: { row_key: `${SHOP}:${rtsOf(99)}` } }),
    });
    const plain = fakeClient(data, { sinceMode: "exclusive" });
    const signal = new AbortController().signal;
    expect(await readAll(pager(misleading, true), signal)).toEqual(await readAll(pager(plain, false), signal));
    expect(misleading.requests.some((r) => r.since === wrong)).toBe(true);
    const needed = misleading.requests.filter((r) => r.since !== wrong);
    expect(needed.map((r) => [r.since, r.limit, r.aborted])).toEqual(plain.requests.map((r) => [r.since, r.limit, false]));
    await new Promise((r) => setTimeout(r, 0));
    expect(misleading.inFlight()).toBe(0);
  });

  it("in a tail, sends nothing from a page's body: a short page has it wait, a full one sends once parsed", async () => {
    const client = fakeClient(series([1, 2]), { sinceMode: "exclusive", body: true });
    const p = pager(client, true, 3, undefined, "tail");
    expect((await p.nextPage(new AbortController().signal)).caughtUp).toBe(true);
    expect(client.requests).toHaveLength(1);
    client.add(series([3, 4, 5]));
    expect((await p.nextPage(new AbortController().signal)).caughtUp).toBe(false);
    expect(client.requests.map((r) => [r.since, r.afterBody])).toEqual([
      [stepRts(rtsOf(1), -1), 1],
      [stepRts(rtsOf(2), -1), 2],
      [stepRts(rtsOf(4), -1), undefined],
    ]);
  });
});
