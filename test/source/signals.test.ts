import { describe, expect, it } from "vitest";
import { firstValueFrom, lastValueFrom, take, toArray } from "rxjs";
import { signals } from "../../src/source/signals.ts";
import { signalPages } from "../../src/source/signalPages.ts";
import { signalPagesObservable } from "../../src/source/signalPagesObservable.ts";
import { signalsForShops } from "../../src/source/signalsForShops.ts";
import { isContractError } from "../../src/errors/ContractError.ts";
import { isTieOverflowError } from "../../src/errors/TieOverflowError.ts";
import { HttpError } from "../../src/errors/HttpError.ts";
import { parseRowKey } from "../../src/codec/rowKey.ts";
import { canonicalRts, spellRts } from "../../src/codec/rtsSpelling.ts";
import { decodeSignal, type InvalidRecord } from "../../src/codec/decodeSignal.ts";
import type { RawSignal } from "../../src/contract/rawSignal.ts";
import { microsRts } from "../../src/codec/rts.ts";
import { fakeClient, makeRecord, rtsOf, type FakeRecord } from "./fakeService.ts";

const SHOP = 7;
const modes = ["inclusive", "exclusive"] as const;

function series(rtsList: readonly number[], shopId = SHOP): FakeRecord[] {
  return rtsList.map((n) => makeRecord(shopId, n));
}

async function collect(source: ReturnType<typeof signals>): Promise<RawSignal[]> {
  return lastValueFrom(source.pipe(toArray()));
}

describe("signals", () => {
  for (const sinceMode of modes) {
    describe(`against a ${sinceMode} service`, () => {
      it("delivers every record once, in order, with small pages and ties", async () => {
        const data = series([1, 1, 1, 2, 3, 3, 3, 3, 3, 4, 9, 9, 10]);
        const client = fakeClient(data, { sinceMode });
        const out = await collect(signals(client, { shopId: SHOP, since: rtsOf(0), limit: 2 }));
        expect(out).toEqual(data.map((d) => d.record));
      });

      it("treats since as inclusive and until as exclusive", async () => {
        const data = series([4, 5, 5, 6, 7, 7, 8]);
        const client = fakeClient(data, { sinceMode });
        const out = await collect(signals(client, { shopId: SHOP, since: rtsOf(5), until: rtsOf(7), limit: 3 }));
        expect(out).toEqual(data.filter((d) => d.rts >= rtsOf(5) && d.rts < rtsOf(7)).map((d) => d.record));
      });

      it("tells identical records apart by multiplicity", async () => {
        const twin = makeRecord(SHOP, 3).record;
        const data: FakeRecord[] = [
          { record: twin, rts: rtsOf(3) },
          { record: twin, rts: rtsOf(3) },
          { record: twin, rts: rtsOf(3) },
          ...series([3, 4]),
        ];
        const client = fakeClient(data, { sinceMode });
        const out = await collect(signals(client, { shopId: SHOP, since: rtsOf(1), limit: 1 }));
        expect(out).toEqual(data.map((d) => d.record));
      });

      it("fails with TieOverflowError when more than 200 records share an RTS", async () => {
        const data = series([1, ...Array.from({ length: 201 }, () => 2), 3]);
        const client = fakeClient(data, { sinceMode });
        const seen: RawSignal[] = [];
        const error = await new Promise<unknown>((resolve) =>
          signals(client, { shopId: SHOP, since: rtsOf(0), limit: 50 }).subscribe({
            next: (r) => seen.push(r),
            error: resolve,
            complete: () => resolve(undefined),
          }),
        );
        expect(isTieOverflowError(error)).toBe(true);
        // Records before the group, and what fitted of it, were delivered, none twice.
        expect(seen).toEqual(data.slice(0, seen.length).map((d) => d.record));
        expect(client.requests.length).toBeLessThanOrEqual(10);
      });
    });
  }

  it("sends since one unit before the boundary and limit as asked", async () => {
    const client = fakeClient(series([10, 11, 12]), { sinceMode: "inclusive" });
    await collect(signals(client, { shopId: SHOP, since: rtsOf(10), limit: 2 }));
    expect(client.requests[0]).toMatchObject({ since: rtsOf(9), limit: 2, shopId: SHOP });
    expect(client.requests[1]).toMatchObject({ since: rtsOf(10), limit: 2 });
  });

  it("converts Date and epoch-ms bounds with the codec", async () => {
    const t0 = Date.UTC(2026, 10, 20);
    const data = series([t0 - 1, t0, t0 + 5, t0 + 10]);
    const client = fakeClient(data, { sinceMode: "inclusive" });
    const out = await collect(signals(client, { shopId: SHOP, since: new Date(t0), until: t0 + 10 }));
    expect(out).toEqual([data[1]!.record, data[2]!.record]);
  });

  it("rejects a page whose RTS go backwards with a ContractError", async () => {
    const data = series([1, 2, 3]);
    const client = fakeClient([], { sinceMode: "inclusive" });
    client.add(data);
    // Swap two records' order in the service's answer.
    const original = client.getSignalsPage.bind(client);
    client.getSignalsPage = async (shopId, request) => {
      const page = await original(shopId, request);
      return { ...page, signals: [page.signals[1]!, page.signals[0]!, ...page.signals.slice(2)] };
    };
    const error = await collect(signals(client, { shopId: SHOP, since: rtsOf(0) })).catch((e: unknown) => e);
    expect(isContractError(error)).toBe(true);
  });

  it("rejects records before the requested since with a ContractError", async () => {
    const client = fakeClient(series([1, 2, 3]), { sinceMode: "inclusive" });
    const original = client.getSignalsPage.bind(client);
    client.getSignalsPage = (shopId, request) => original(shopId, { ...request, since: rtsOf(0) });
    const error = await collect(signals(client, { shopId: SHOP, since: rtsOf(3) })).catch((e: unknown) => e);
    expect(isContractError(error)).toBe(true);
  });

  it("routes records with an unusable row_key to onInvalid once, and goes on", async () => {
    const bad1: FakeRecord = { record: { ...makeRecord(SHOP, 3).record, row_key: "garbage" }, rts: rtsOf(3) };
    const bad2: FakeRecord = { record: { ...makeRecord(SHOP, 5).record, row_key: `99:${rtsOf(5)}` }, rts: rtsOf(5) };
    const good = series([1, 2, 3, 4, 5, 6, 7]);
    const data = [...good.slice(0, 3), bad1, ...good.slice(3, 5), bad2, ...good.slice(5)];
    for (const sinceMode of modes) {
      for (const limit of [1, 2, 3, 200]) {
        const client = fakeClient(data, { sinceMode });
        const invalid: InvalidRecord[] = [];
        const out = await collect(signals(client, { shopId: SHOP, since: rtsOf(0), limit, onInvalid: (bad) => invalid.push(bad) }));
        expect(out).toEqual(good.map((d) => d.record));
        expect(invalid.map((i) => i.record)).toEqual([bad1.record, bad2.record]);
        // The decoder's reasons: one invalid-record channel from the source through the decoder.
        expect(invalid.map((i) => i.reason)).toEqual(["bad-row-key", "shop-mismatch"]);
        expect(invalid.map((i) => i.reason)).toEqual([bad1.record, bad2.record].map((r) => decodeSignal(r, { shopId: SHOP }) as InvalidRecord).map((i) => i.reason));
      }
    }
  });

  it("routes records with a field missing or wrongly typed to onInvalid, with the decoder's reasons, and goes on", async () => {
    const wrong = (n: number, fields: Record<string, unknown>): FakeRecord => ({ record: { ...makeRecord(SHOP, n).record, ...fields } as RawSignal, rts: rtsOf(n) });
    const bad = [wrong(2, { rssi: null }), wrong(4, { local: 0 }), wrong(4, { device_id: undefined }), wrong(6, { ts: 1.5e3, rssi: "-60" })];
    // A 64-bit ts the service quoted is the decoder's to read: delivered, as a number.
    const quoted = wrong(5, { ts: "5" });
    const good = series([1, 3, 4, 6, 7]);
    const data = [good[0]!, bad[0]!, good[1]!, bad[1]!, good[2]!, bad[2]!, quoted, good[3]!, bad[3]!, good[4]!];
    const expected = [good[0]!, good[1]!, good[2]!, quoted, good[3]!, good[4]!].map((d) => (d === quoted ? { ...d.record, ts: 5 } : d.record));
    for (const sinceMode of modes) {
      for (const limit of [1, 2, 3, 200]) {
        const client = fakeClient(data, { sinceMode });
        const invalid: InvalidRecord[] = [];
        const out = await collect(signals(client, { shopId: SHOP, since: rtsOf(0), limit, onInvalid: (x) => invalid.push(x) }));
        expect(out).toEqual(expected);
        expect(invalid.map((i) => i.record)).toEqual(bad.map((b) => b.record));
        expect(invalid.map((i) => [i.reason, i.field])).toEqual([["missing-field", "rssi"], ["wrong-type", "local"], ["missing-field", "device_id"], ["wrong-type", "rssi"]]);
        expect(invalid.map((i) => i.message)).toEqual(bad.map((b) => (decodeSignal(b.record, { shopId: SHOP }) as InvalidRecord).message));
      }
    }
  });

  it("pages past any number of records with a field mistyped: they have their place in the order", async () => {
    // 450 records in ties of three, 400 of them with local sent as 0/1: full pages of nothing deliverable.
    const data = Array.from({ length: 450 }, (_, i): FakeRecord => {
      const r = makeRecord(SHOP, 1 + Math.floor(i / 3));
      return i >= 20 && i < 420 ? { ...r, record: { ...r.record, local: 1 } as unknown as RawSignal } : r;
    });
    for (const sinceMode of modes) {
      for (const limit of [7, 200]) {
        const client = fakeClient(data, { sinceMode });
        const invalid: InvalidRecord[] = [];
        const out = await collect(signals(client, { shopId: SHOP, since: rtsOf(0), limit, onInvalid: (x) => invalid.push(x) }));
        expect(out).toEqual(data.filter((_, i) => i < 20 || i >= 420).map((d) => d.record));
        expect(invalid.map((x) => x.record)).toEqual(data.slice(20, 420).map((d) => d.record));
        expect(new Set(invalid.map((x) => `${x.reason} ${x.field}`))).toEqual(new Set(["wrong-type local"]));
      }
    }
  });

  it("reports invalid records at the end of the data once", async () => {
    const bad: FakeRecord = { record: { ...makeRecord(SHOP, 9).record, row_key: "nope" }, rts: rtsOf(9) };
    const client = fakeClient([...series([1, 2]), bad], { sinceMode: "inclusive" });
    let invalid = 0;
    const out = await collect(signals(client, { shopId: SHOP, since: rtsOf(0), onInvalid: () => invalid++ }));
    expect(out).toHaveLength(2);
    expect(invalid).toBe(1);
  });

  it("fails with a ContractError, not a loop, on a full page of unusable row_keys", async () => {
    const bad = Array.from({ length: 5 }, (_, i): FakeRecord => ({
      record: { ...makeRecord(SHOP, 2).record, row_key: `x${i}` },
      rts: rtsOf(2),
    }));
    const client = fakeClient([...series([1]), ...bad, ...series([3])], { sinceMode: "inclusive" });
    const error = await collect(signals(client, { shopId: SHOP, since: rtsOf(0), limit: 200 })).catch((e: unknown) => e);
    // 1 + 5 + 1 records fit in one page of 200, so this one succeeds…
    expect(Array.isArray(error)).toBe(true);
    const many = Array.from({ length: 200 }, (_, i): FakeRecord => ({
      record: { ...makeRecord(SHOP, 2).record, row_key: `y${i}` },
      rts: rtsOf(2),
    }));
    const stuck = fakeClient([...series([1]), ...many, ...series([3])], { sinceMode: "exclusive" });
    const error2 = await collect(signals(stuck, { shopId: SHOP, since: rtsOf(0), limit: 10 })).catch((e: unknown) => e);
    expect(isContractError(error2)).toBe(true);
    expect(stuck.requests.length).toBeLessThanOrEqual(6);
  });

  it("validates options eagerly", () => {
    const client = fakeClient([], { sinceMode: "inclusive" });
    expect(() => signals(client, { shopId: -1, since: 0 })).toThrow(TypeError);
    expect(() => signals(client, { shopId: 1 })).toThrow(/since is required/);
    expect(() => signals(client, { shopId: 1, since: 0, limit: 201 })).toThrow(RangeError);
    expect(() => signals(client, { shopId: 1, since: 0, limit: 0 })).toThrow(RangeError);
    expect(() => signals(client, { shopId: 1, since: "2026-11-20" })).toThrow(/RTS/);
    expect(() => signals(client, { shopId: 1, since: 0, slices: 2 })).toThrow(/until/);
    expect(() => signals(client, { shopId: 1, since: 0, pollIntervalMs: -1 })).toThrow(RangeError);
    expect(() => signals(client, { shopId: 1, since: Number.NaN })).toThrow(RangeError);
  });

  it("aborts the request in flight on unsubscribe and sends no other", async () => {
    const client = fakeClient(series([1, 2, 3]), { sinceMode: "inclusive", hang: (i) => i === 1 });
    const seen: RawSignal[] = [];
    const subscription = signals(client, { shopId: SHOP, since: rtsOf(0), limit: 1 }).subscribe((r) => seen.push(r));
    await new Promise((resolve) => setImmediate(resolve));
    expect(client.inFlight()).toBe(1);
    subscription.unsubscribe();
    await new Promise((resolve) => setImmediate(resolve));
    expect(client.inFlight()).toBe(0);
    expect(client.requests.map((r) => r.aborted)).toEqual([false, true]);
    expect(seen).toHaveLength(1);
  });

  it("errors with the reason when options.signal aborts", async () => {
    const client = fakeClient(series([1, 2, 3]), { sinceMode: "inclusive", hang: (i) => i === 0 });
    const controller = new AbortController();
    const done = collect(signals(client, { shopId: SHOP, since: rtsOf(0), signal: controller.signal })).catch((e: unknown) => e);
    await new Promise((resolve) => setImmediate(resolve));
    const reason = new Error("stop");
    controller.abort(reason);
    expect(await done).toBe(reason);
  });

  it("page variants carry records and cursors", async () => {
    const data = series([1, 2, 2, 3]);
    const client = fakeClient(data, { sinceMode: "exclusive" });
    const pages = await lastValueFrom(signalPagesObservable(client, { shopId: SHOP, since: rtsOf(1), limit: 2 }).pipe(toArray()));
    expect(pages.flatMap((p) => p.records)).toEqual(data.map((d) => d.record));
    expect(pages.at(-1)?.done).toBe(true);
    expect(pages[0]?.cursor).toEqual({ rts: rtsOf(2), delivered: [expect.any(String)] });
    const iterated: RawSignal[] = [];
    for await (const page of signalPages(client, { shopId: SHOP, since: rtsOf(1), limit: 3 })) iterated.push(...page.records);
    expect(iterated).toEqual(data.map((d) => d.record));
  });

  it("reports progress by time through [since, until)", async () => {
    const client = fakeClient(series([0, 25, 50, 75, 99, 100]), { sinceMode: "inclusive" });
    const fractions: (number | undefined)[] = [];
    await collect(signals(client, { shopId: SHOP, since: 0, until: 100, limit: 2, onProgress: (p) => fractions.push(p.fraction) }));
    // Each page of 2 re-reads the boundary record, so it advances one record: 25, 50, 75, 99, then 100 ends it.
    expect(fractions).toEqual([0.25, 0.5, 0.75, 0.99, 1]);
  });

  it("merges shops with a concurrency bound", async () => {
    const data = [...series([1, 2, 3], 1), ...series([1, 2], 2), ...series([5], 3)];
    const client = fakeClient([], { sinceMode: "inclusive" });
    // One fake per shop id: route by shop.
    const perShop = new Map([1, 2, 3].map((id) => [id, fakeClient(data.filter((d) => d.record.row_key.startsWith(`${id}:`)), { sinceMode: "inclusive" })]));
    let active = 0;
    let maxActive = 0;
    client.getSignalsPage = async (shopId, request) => {
      active++;
      maxActive = Math.max(maxActive, active);
      try {
        return await perShop.get(shopId)!.getSignalsPage(shopId, request);
      } finally {
        active--;
      }
    };
    const out = await collect(signalsForShops(client, [1, 2, 3], { since: rtsOf(0), limit: 1, concurrency: 2 }));
    expect(out).toHaveLength(6);
    expect(maxActive).toBeLessThanOrEqual(2);
    for (const id of [1, 2, 3]) {
      expect(out.filter((r) => r.row_key.startsWith(`${id}:`))).toEqual(data.filter((d) => d.record.row_key.startsWith(`${id}:`)).map((d) => d.record));
    }
    expect(() => signalsForShops(client, [1, 1], { since: 0 })).toThrow(RangeError);
  });

  it("fetches at most one page ahead; take(n) aborts it and sends nothing more", async () => {
    const client = fakeClient(series([1, 2, 3, 4, 5]), { sinceMode: "inclusive", hang: (i) => i >= 1 });
    const first = await firstValueFrom(signals(client, { shopId: SHOP, since: rtsOf(0), limit: 2 }).pipe(take(1)));
    expect(first.row_key).toBe(`${SHOP}:${rtsOf(1)}`);
    await new Promise((resolve) => setImmediate(resolve));
    // Page 1 was full, so page 2 was asked for as page 1 was handed over; take(1) aborted it.
    expect(client.requests.map((r) => r.aborted)).toEqual([false, true]);
    expect(client.inFlight()).toBe(0);
  });

  it("says which RTS unit the service uses when it is not the codec's, instead of reading nothing", async () => {
    // A service whose RTS counts µs (ts in ms): read with the ms codec, `since` for today means
    // 1970 to it, so it answers with its oldest records, whose RTS lie past `until`.
    const t0 = Date.UTC(2026, 10, 20);
    const data = [0, 1_000, 2_000, 3_000].map((dt) => makeRecord(SHOP, (t0 + dt) * 1000, { ts: t0 + dt }));
    const since = new Date(t0);
    const until = new Date(t0 + 10_000);
    const error = await collect(signals(fakeClient(data, { sinceMode: "inclusive" }), { shopId: SHOP, since, until })).catch((e: unknown) => e);
    expect(isContractError(error)).toBe(true);
    expect((error as Error).message).toMatch(/counts microseconds.*rtsCodec: microsRts.*--rts-unit us/);
    // With the service's unit, every record once.
    const out = await collect(signals(fakeClient(data, { sinceMode: "inclusive" }), { shopId: SHOP, since, until, rtsCodec: microsRts }));
    expect(out).toEqual(data.map((d) => d.record));
    // A sensor clock hours off is not a unit: read as it is.
    const skewed = [0, 1_000].map((dt) => makeRecord(SHOP, t0 + dt, { ts: t0 + dt + 9 * 3_600_000 }));
    expect(await collect(signals(fakeClient(skewed, { sinceMode: "inclusive" }), { shopId: SHOP, since, until }))).toEqual(skewed.map((d) => d.record));
  });

  it("says the RTS rule is another when the records' RTS read as no time near their ts, in no unit (a count with a sequence in its low bits)", async () => {
    // RTS = ms × 4096 + sequence (snowflake-like): no power of 1000 maps it near ts.
    const t0 = Date.UTC(2026, 10, 20);
    const sensors = ["b8:27:eb:00:00:01", "b8:27:eb:00:00:02"];
    const data = [0, 1, 2, 3, 4, 5].map((k) => makeRecord(SHOP, (t0 + k * 1_000) * 4096 + k, { ts: t0 + k * 1_000, square_mac: sensors[k % 2]! }));
    // Without `until` the read would otherwise deliver a range it cannot place; with it, nothing.
    for (const range of [{ since: new Date(t0) }, { since: new Date(t0), until: new Date(t0 + 60_000) }]) {
      const error = await collect(signals(fakeClient(data, { sinceMode: "inclusive" }), { shopId: SHOP, ...range })).catch((e: unknown) => e);
      expect(isContractError(error)).toBe(true);
      expect((error as Error).message).toMatch(/RTS does not read as the time of its records.*rule is another.*rtsCodec/);
    }
    // With a codec for that rule, every record once.
    const snowflake = { encode: (ms: number) => rtsOf(Math.floor(ms) * 4096), decode: (rts: string) => Math.floor(Number.parseInt(rts, 16) / 4096) };
    expect(await collect(signals(fakeClient(data, { sinceMode: "inclusive" }), { shopId: SHOP, since: new Date(t0), until: new Date(t0 + 60_000), rtsCodec: snowflake }))).toEqual(
      data.map((d) => d.record),
    );
  });

  it("does not take one sensor's clock a year off, a backlog uploaded months late, or a shop with one sensor, for another RTS rule", async () => {
    const t0 = Date.UTC(2026, 10, 20);
    const year = 365 * 86_400_000;
    // Sensor 2's clock runs a year ahead; sensor 1's records are near their RTS.
    const mixed = [0, 1, 2, 3, 4, 5].map((k) => makeRecord(SHOP, t0 + k * 1_000, { ts: t0 + k * 1_000 + (k % 2 === 1 ? year : 0), square_mac: `b8:27:eb:00:00:0${1 + (k % 2)}` }));
    expect(await collect(signals(fakeClient(mixed, { sinceMode: "inclusive" }), { shopId: SHOP, since: new Date(t0), until: new Date(t0 + 60_000) }))).toEqual(mixed.map((d) => d.record));
    // Even when the off sensor's records come first.
    const offFirst = [1, 3, 5, 0, 2, 4].map((k, i) => makeRecord(SHOP, t0 + i * 1_000, { ts: t0 + i * 1_000 + (k % 2 === 1 ? year : 0), square_mac: `b8:27:eb:00:00:0${1 + (k % 2)}` }));
    expect(await collect(signals(fakeClient(offFirst, { sinceMode: "inclusive" }), { shopId: SHOP, since: new Date(t0), until: new Date(t0 + 60_000) }))).toEqual(offFirst.map((d) => d.record));
    // A backlog: the shop's sensors were offline for two months and upload what they heard, so
    // the service received (RTS) long after it was collected (ts), from every sensor.
    const backlog = [0, 1, 2, 3, 4, 5].map((k) => makeRecord(SHOP, t0 + k * 1_000, { ts: t0 + k * 1_000 - 60 * 86_400_000, square_mac: `b8:27:eb:00:00:0${1 + (k % 2)}` }));
    expect(await collect(signals(fakeClient(backlog, { sinceMode: "inclusive" }), { shopId: SHOP, since: new Date(t0), until: new Date(t0 + 60_000) }))).toEqual(backlog.map((d) => d.record));
    // One sensor, every clock a year off: not decided (the decoder counts the disagreement).
    const one = [0, 1, 2, 3].map((k) => makeRecord(SHOP, t0 + k * 1_000, { ts: t0 + k * 1_000 + year }));
    expect(await collect(signals(fakeClient(one, { sinceMode: "inclusive" }), { shopId: SHOP, since: new Date(t0), until: new Date(t0 + 60_000) }))).toEqual(one.map((d) => d.record));
  });

  it("an empty first answer is checked against the service's oldest record: an RTS in seconds is named, not read as nothing", async () => {
    // A service whose RTS counts seconds: today's `since` in ms is its far future, so it answers nothing.
    const t0 = Date.UTC(2026, 10, 20);
    const data = [0, 1_000, 2_000].map((dt) => makeRecord(SHOP, (t0 + dt) / 1000, { ts: String(t0 + dt) as unknown as number }));
    const client = fakeClient(data, { sinceMode: "inclusive" });
    const error = await collect(signals(client, { shopId: SHOP, since: new Date(t0), until: new Date(t0 + 10_000) })).catch((e: unknown) => e);
    expect(isContractError(error)).toBe(true);
    expect((error as Error).message).toMatch(/counts seconds.*rtsCodec: secondsRts.*--rts-unit s/);
    // The oldest records (since 0: the same in every spelling) show the unit, and the case the since was sent in.
    expect(client.requests.map((r) => [r.since, r.limit])).toEqual([[rtsOf(t0 - 1), 200], [rtsOf(0), 200]]);
    // A range that is empty under the right unit costs the one request more, and reads as empty.
    const right = fakeClient(series([5, 6]), { sinceMode: "inclusive" });
    expect(await collect(signals(right, { shopId: SHOP, since: rtsOf(100), until: rtsOf(200) }))).toEqual([]);
    expect(right.requests).toHaveLength(2);
  });

  it("a service mixing RTS spellings from record to record is read to its end, each record once, asking again at most twice", async () => {
    const data = series([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => n * 0xabc));
    for (const sinceMode of modes) {
      // A numeric reading of since, whatever its spelling; each record spelled its own way, the
      // same on every request (by its value: every other in uppercase, every third unpadded).
      const read = async (mixed: boolean) => {
        const client = fakeClient(data, { sinceMode });
        const original = client.getSignalsPage.bind(client);
        let requests = 0;
        client.getSignalsPage = async (shopId, request) => {
          requests++;
          const page = await original(shopId, { ...request, since: canonicalRts(request!.since)! });
          const spelled = (page.signals as readonly RawSignal[]).map((r) => {
            const rts = parseRowKey(r.row_key).rts;
            const n = Number.parseInt(rts, 16) / 0xabc;
            return mixed ? { ...r, row_key: `${SHOP}:${spellRts(rts, { upper: n % 2 === 0, padded: n % 3 !== 0 })}` } : r;
          });
          return { ...page, signals: spelled };
        };
        const out = await collect(signals(client, { shopId: SHOP, since: rtsOf(0), limit: 3 }));
        return { rts: out.map((r) => parseRowKey(r.row_key).rts), requests };
      };
      const plain = await read(false);
      const mixed = await read(true);
      expect(mixed.rts).toEqual(data.map((d) => d.rts));
      // Each departure from footfall's spelling is kept once seen: two pages asked again at most.
      expect(mixed.requests).toBeLessThanOrEqual(plain.requests + 2);
    }
  });

  it("a service that refuses the oldest-record check's since 0 (before its retention) still reads an empty range as empty", async () => {
    for (const status of [400, 404, 422]) {
      const client = fakeClient(series([5, 6]), { sinceMode: "inclusive" });
      const original = client.getSignalsPage.bind(client);
      client.getSignalsPage = async (shopId, request) => {
        if (request?.since === rtsOf(0)) throw new HttpError({ status, method: "GET", url: "http://svc/api/v1/shops/7/wifi_signals", bodyExcerpt: '{"error":"since is before retention"}' });
        return original(shopId, request);
      };
      expect(await collect(signals(client, { shopId: SHOP, since: rtsOf(100), until: rtsOf(200) }))).toEqual([]);
      expect(client.requests.map((r) => r.since)).toEqual([rtsOf(99)]);
    }
    // Any other failure of that request is the read's.
    const failing = fakeClient(series([5, 6]), { sinceMode: "inclusive" });
    const original = failing.getSignalsPage.bind(failing);
    failing.getSignalsPage = async (shopId, request) => {
      if (request?.since === rtsOf(0)) throw new HttpError({ status: 500, method: "GET", url: "http://svc/x", bodyExcerpt: "" });
      return original(shopId, request);
    };
    const error = await collect(signals(failing, { shopId: SHOP, since: rtsOf(100), until: rtsOf(200) })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
  });

  it("a service capping its pages inside a group of records at one RTS fails with TieOverflowError, not a silent end", async () => {
    // Pages of at most 3 whatever the limit; 5 records at RTS 3, more after them.
    const data = series([1, 2, 3, 3, 3, 3, 3, 4, 5]);
    for (const sinceMode of modes) {
      const client = fakeClient(data, { sinceMode });
      const original = client.getSignalsPage.bind(client);
      client.getSignalsPage = async (shopId, request) => {
        const page = await original(shopId, request);
        return { ...page, signals: page.signals.slice(0, 3) };
      };
      const seen: RawSignal[] = [];
      const error = await new Promise<unknown>((resolve) =>
        signals(client, { shopId: SHOP, since: rtsOf(0) }).subscribe({ next: (r) => seen.push(r), error: resolve, complete: () => resolve(undefined) }),
      );
      expect(isTieOverflowError(error) && [error.rts, error.limit]).toEqual([rtsOf(3), 3]);
      // What was delivered is the data's beginning, once.
      expect(seen).toEqual(data.slice(0, seen.length).map((d) => d.record));
      // The same service with groups no larger than its pages reads to the end.
      const small = series([1, 2, 3, 3, 3, 4, 5, 5, 6]);
      const fine = fakeClient(small, { sinceMode });
      const fineOriginal = fine.getSignalsPage.bind(fine);
      fine.getSignalsPage = async (shopId, request) => ({ ...(await fineOriginal(shopId, request)), signals: (await fineOriginal(shopId, request)).signals.slice(0, 4) });
      expect(await collect(signals(fine, { shopId: SHOP, since: rtsOf(0) }))).toEqual(small.map((d) => d.record));
    }
  });

  it("a short page (caught up) is not followed by a request ahead, even with its body handed over first", async () => {
    const client = fakeClient(series([1, 2]), { sinceMode: "inclusive", body: true });
    const iterator = signalPages(client, { shopId: SHOP, since: rtsOf(0), mode: "tail", pollIntervalMs: 60_000 })[Symbol.asyncIterator]();
    const page = await iterator.next();
    expect(page.value?.caughtUp).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(client.requests).toHaveLength(1);
    await iterator.return?.();
  });
});
