import { beforeAll, describe, expect, it } from "vitest";
import { lastValueFrom, take, toArray, VirtualTimeScheduler } from "rxjs";
import { createWorld } from "../../src/sim/createWorld.ts";
import { createSimHandler, type FaultOptions } from "../../src/sim/service/createSimHandler.ts";
import { startSimulator, type RunningSimulator } from "../../src/sim/service/startSimulator.ts";
import type { World } from "../../src/sim/world/World.ts";
import { createClient } from "../../src/client/createClient.ts";
import type { Client } from "../../src/client/Client.ts";
import type { RawSignal } from "../../src/contract/rawSignal.ts";
import { signals } from "../../src/source/signals.ts";
import { signalPagesObservable } from "../../src/source/signalPagesObservable.ts";
import { signalsForShops } from "../../src/source/signalsForShops.ts";
import { memoryCursorStore } from "../../src/source/memoryCursorStore.ts";
import { parseRowKey } from "../../src/codec/rowKey.ts";
import { spellRts } from "../../src/codec/rtsSpelling.ts";
import { advanceTo } from "../source/virtualTime.ts";
import { microsRts, secondsRts } from "../../src/codec/rts.ts";
import { hashSeed } from "../../src/sim/random/prng.ts";
import { BROKEN_KINDS, brokenKind } from "../../src/sim/service/brokenRecord.ts";
import { SignalDecoder, type InvalidRecord } from "../../src/codec/decodeSignal.ts";

// A small world: two shops, a three-hour day, no staff or stationary devices (~4k records a shop).
const SEED = 11;
const WORLD = {
  shops: 2,
  visitorsPerDay: 30,
  passersByPerDay: 30,
  staffPerShop: 0,
  stationaryPerShop: 0,
  days: 1,
  openingHours: [10, 13] as const,
};
const FAST_RETRY = { retries: 30, minTimeout: 1, maxTimeout: 4, maxRetryAfterMs: 4 };

let world: World;
beforeAll(() => {
  world = createWorld({ seed: SEED, ...WORLD });
});

function clientOver(sim: { fetch: typeof fetch; email: string; token: string }, onRetry?: () => void): Client {
  return createClient({
    baseUrl: "http://sim",
    signalUrl: "http://sim",
    email: sim.email,
    token: sim.token,
    fetch: sim.fetch,
    retry: onRetry === undefined ? FAST_RETRY : { ...FAST_RETRY, onRetry },
  });
}

const faultModes: readonly [string, FaultOptions][] = [
  ["no faults", {}],
  ["failures (500/503)", { failRate: 0.3 }],
  ["throttling (429)", { throttleRate: 0.3 }],
  ["truncated bodies", { truncateRate: 0.3 }],
  ["latency", { latencyMs: 2 }],
];

describe("source against the simulator", () => {
  for (const sinceMode of ["inclusive", "exclusive"] as const) {
    for (const [name, faults] of faultModes) {
      it(`${sinceMode} since, ${name}: every record of the day once, in order`, async () => {
        const sim = createSimHandler({ seed: SEED, world, sinceMode, faults });
        const shopId = world.shops[0]!.id;
        let retries = 0;
        const client = clientOver(sim, () => retries++);
        const out = await lastValueFrom(signals(client, { shopId, since: world.startMs, until: world.endMs, limit: 97 }).pipe(toArray()));
        const expected = [...world.rawSignals(shopId)];
        expect(expected.length).toBeGreaterThan(1_000);
        expect(out).toEqual(expected);
        // The faults really happened (and were absorbed below the source).
        if (faults.failRate !== undefined || faults.throttleRate !== undefined || faults.truncateRate !== undefined) {
          expect(retries).toBeGreaterThan(5);
        }
      });
    }
  }

  it("broken records and a quoted ts: each broken record reported once with its reason, every other record decoded once", async () => {
    const malformedRate = 0.02;
    const shopId = world.shops[0]!.id;
    const expected = [...world.rawSignals(shopId)];
    // Which records the simulator breaks, and how: its own rule, the ground truth here.
    const seed = hashSeed(SEED, "malformed");
    const kinds = expected.map((_, i) => brokenKind(seed, shopId, i, malformedRate));
    const broken = kinds.filter((k) => k >= 0);
    expect(broken.length).toBeGreaterThan(40);
    expect(new Set(broken).size).toBe(BROKEN_KINDS.length);
    for (const sinceMode of ["inclusive", "exclusive"] as const) {
      for (const limit of [97, 200]) {
        const sim = createSimHandler({ seed: SEED, world, sinceMode, tsQuoted: true, faults: { malformedRate, truncateRate: 0.1 } });
        const invalid: InvalidRecord[] = [];
        const out = await lastValueFrom(
          signals(clientOver(sim), { shopId, since: world.startMs, until: world.endMs, limit, onInvalid: (x) => invalid.push(x) }).pipe(toArray()),
        );
        expect(out.every((r) => typeof r.ts === "number")).toBe(true);
        // The source rejects what it cannot page by or type; the decoder the bad values: one channel.
        const decoder = new SignalDecoder({ shopId, onInvalid: (x) => invalid.push(x) });
        expect(decoder.decodeAll(out)).toEqual(new SignalDecoder({ shopId }).decodeAll(expected.filter((_, i) => kinds[i]! < 0)));
        const count = (reasons: readonly string[]) => [...new Set(reasons)].sort().map((r) => [r, reasons.filter((x) => x === r).length]);
        expect(count(invalid.map((x) => x.reason))).toEqual(count(broken.map((k) => BROKEN_KINDS[k]!.reason)));
      }
    }
  });

  it.each([
    ["us", microsRts, /counts microseconds.*--rts-unit us/],
    ["s", secondsRts, /counts seconds.*--rts-unit s/],
  ] as const)("a service whose RTS counts %s: read with its codec, every record once; with the ms codec, a ContractError naming the unit", async (rtsUnit, codec, named) => {
    const shopId = world.shops[0]!.id;
    const sim = createSimHandler({ seed: SEED, world, rtsUnit });
    const range = { shopId, since: world.startMs, until: world.endMs, limit: 200 };
    expect(await lastValueFrom(signals(clientOver(sim), { ...range, rtsCodec: codec, slices: 2 }).pipe(toArray()))).toEqual(
      [...world.rawSignals(shopId)].map((r) => ({ ...r, row_key: `${shopId}:${codec.encode(r.ts)}` })),
    );
    const error = await lastValueFrom(signals(clientOver(sim), range).pipe(toArray())).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(named);
  });

  it.each([
    ["uppercase", "inclusive", { rtsCase: "upper" }],
    ["uppercase", "exclusive", { rtsCase: "upper" }],
    ["without leading zeros", "inclusive", { rtsPadded: false }],
    ["uppercase without leading zeros", "exclusive", { rtsCase: "upper", rtsPadded: false }],
  ] as const)(
    "a service that spells its RTS %s and compares since by bytes (%s): every record once, across a stop, decoded as footfall's own spelling",
    async (_name, sinceMode, spelling) => {
      const shopId = world.shops[0]!.id;
      const sim = createSimHandler({ seed: SEED, world, sinceMode, ...spelling, pageSize: [40, 160] });
      const as = { upper: "rtsCase" in spelling, padded: !("rtsPadded" in spelling) };
      const held = [...world.rawSignals(shopId)].map((r) => ({ ...r, row_key: `${shopId}:${spellRts(parseRowKey(r.row_key).rts, as)}` }));
      const options = { shopId, since: world.startMs, until: world.endMs, limit: 200, checkpoint: memoryCursorStore() };
      // Stops part-way, resumes from the checkpoint (saved in footfall's spelling).
      const first = await lastValueFrom(signals(clientOver(sim), options).pipe(take(1_234), toArray()));
      const rest = await lastValueFrom(signals(clientOver(sim), options).pipe(toArray()));
      expect([...first, ...rest]).toEqual(held);
      expect((await options.checkpoint.load(`shop:${shopId}`))?.rts).toMatch(/^[0-9a-f]{16}$/);
      const sliced = await lastValueFrom(signals(clientOver(sim), { shopId, since: world.startMs, until: world.endMs, slices: 3 }).pipe(toArray()));
      expect(sliced).toEqual(held);
      expect(new SignalDecoder({ shopId }).decodeAll(held)).toEqual(new SignalDecoder({ shopId }).decodeAll([...world.rawSignals(shopId)]));
    },
  );

  it("a resume whose since, sent in lowercase to a store of uppercase keys, lands on keys without a letter: the case is learnt first, nothing skipped", async () => {
    // Found by the service fuzzer (service 717): µs RTS, uppercase, pages of 2. The resumed
    // read's first since ("0006605c4101a707") sorts after every "0006605C…"–"0006605F…" key,
    // and the store answered from "00066060…", keys with no letter to show the case: the
    // records between were skipped, silently.
    const w = createWorld({ seed: 717, shops: 1, visitorsPerDay: 27, passersByPerDay: 47, staffPerShop: 1, stationaryPerShop: 0, openingHours: [10, 13] });
    const shopId = w.shops[0]!.id;
    const sim = createSimHandler({ world: w, seed: 717, rtsUnit: "us", rtsCase: "upper", pageSize: [50, 158] });
    const options = { shopId, since: w.startMs, until: w.endMs, rtsCodec: microsRts, limit: 2, slices: 2, checkpoint: memoryCursorStore() };
    const held = [...w.rawSignals(shopId)];
    const first = await lastValueFrom(signals(clientOver(sim), options).pipe(take(Math.round(held.length * 0.48)), toArray()));
    const rest = await lastValueFrom(signals(clientOver(sim), options).pipe(toArray()));
    expect(first.length + rest.length).toBe(held.length);
    expect(new SignalDecoder({ shopId, rtsCodec: microsRts }).decodeAll([...first, ...rest])).toEqual(
      new SignalDecoder({ shopId, rtsCodec: microsRts }).decodeAll(held.map((r) => ({ ...r, row_key: `${shopId}:${microsRts.encode(r.ts).toUpperCase()}` }))),
    );
  });

  it("all faults at once, over a real port, with slices 2 and a time range", async () => {
    const running: RunningSimulator = await startSimulator({
      seed: SEED,
      world,
      faults: { failRate: 0.15, throttleRate: 0.15, truncateRate: 0.15, latencyMs: 1 },
    });
    try {
      const client = createClient({ baseUrl: running.baseUrl, signalUrl: running.signalUrl, email: running.email, token: running.token, retry: FAST_RETRY });
      const shopId = world.shops[1]!.id;
      const from = world.startMs + 3_600_000 * 2;
      const to = world.endMs - 3_600_000 * 10;
      const out = await lastValueFrom(signals(client, { shopId, since: new Date(from), until: new Date(to), slices: 2 }).pipe(toArray()));
      const expected = [...world.rawSignals(shopId, from, to)];
      expect(expected.length).toBeGreaterThan(100);
      expect(out).toEqual(expected);
    } finally {
      await running.close();
    }
  });

  it("signalsForShops reads every shop, each in order", async () => {
    const sim = createSimHandler({ seed: SEED, world, faults: { failRate: 0.1 } });
    const ids = world.shops.map((s) => s.id);
    const out = await lastValueFrom(signalsForShops(clientOver(sim), ids, { since: world.startMs, concurrency: 2 }).pipe(toArray()));
    for (const id of ids) {
      expect(out.filter((r) => r.row_key.startsWith(`${id}:`))).toEqual([...world.rawSignals(id)]);
    }
  });

  it("a full default shop-day keeps memory bounded: dedupe state ≤ the largest tie group, slice buffers within their bound", async () => {
    const day = createWorld({ seed: SEED, shops: 1 });
    const shopId = day.shops[0]!.id;
    let largestTie = 0;
    let run = 0;
    let previous = "";
    for (const r of day.rawSignals(shopId)) {
      run = r.row_key === previous ? run + 1 : 1;
      previous = r.row_key;
      if (run > largestTie) largestTie = run;
    }
    const sim = createSimHandler({ seed: SEED, world: day });
    let records = 0;
    let maxDedupe = 0;
    let maxBuffered = 0;
    // Counted page by page, nothing kept: the source holds one page, its cursor and the slice buffers.
    await new Promise<void>((resolve, reject) =>
      signalPagesObservable(clientOver(sim), {
        shopId,
        since: day.startMs,
        until: day.endMs,
        slices: 4,
        sliceBufferPages: 8,
        onProgress: (p) => (maxBuffered = Math.max(maxBuffered, p.bufferedPages)),
      }).subscribe({
        next: (page) => {
          records += page.records.length;
          maxDedupe = Math.max(maxDedupe, page.cursor.delivered.length);
        },
        error: reject,
        complete: resolve,
      }),
    );
    expect(records).toBe(day.signalCount(shopId));
    expect(records).toBeGreaterThan(50_000);
    expect(maxDedupe).toBeLessThanOrEqual(largestTie);
    expect(maxBuffered).toBeLessThanOrEqual(3 * 8);
  });

  it("tails a live simulator in virtual time: each record once, as it appears", async () => {
    const scheduler = new VirtualTimeScheduler();
    const liveStart = world.startMs + 3_600_000 * 11; // mid-morning of the shop's day
    scheduler.frame = 0;
    // The simulator's clock is the scheduler's: simulated time = liveStart + virtual ms.
    const sim = createSimHandler({ seed: SEED, world, speed: 1, liveStart, clock: () => scheduler.now() });
    const shopId = world.shops[0]!.id;
    const got: RawSignal[] = [];
    const subscription = signals(clientOver(sim), {
      shopId,
      since: world.startMs,
      mode: "tail",
      pollIntervalMs: 60_000,
      scheduler,
    }).subscribe((r) => got.push(r));
    await advanceTo(scheduler, 0);
    const atStart = [...world.rawSignals(shopId, world.startMs, liveStart + 1)];
    expect(got).toEqual(atStart);
    await advanceTo(scheduler, 3 * 3_600_000);
    subscription.unsubscribe();
    const later = [...world.rawSignals(shopId, world.startMs, liveStart + 3 * 3_600_000 + 1)];
    expect(later.length).toBeGreaterThan(atStart.length);
    expect(got).toEqual(later);
  });

  it("sensors that upload in batches: a tail settleMs behind gets every record once; one that is not misses some", async () => {
    const liveStart = world.startMs + 3_600_000 * 11;
    const uploadEveryMs = 45_000;
    const shopId = world.shops[0]!.id;
    const tail = async (settleMs: number): Promise<RawSignal[]> => {
      const scheduler = new VirtualTimeScheduler();
      const sim = createSimHandler({ seed: SEED, world, speed: 1, liveStart, clock: () => scheduler.now(), uploadEveryMs });
      const got: RawSignal[] = [];
      const subscription = signals(clientOver(sim), { shopId, since: liveStart, mode: "tail", pollIntervalMs: 10_000, settleMs, scheduler }).subscribe((r) =>
        got.push(r),
      );
      await advanceTo(scheduler, 3_600_000);
      subscription.unsubscribe();
      return got;
    };
    // Everything collected in the first 50 minutes has been uploaded, settled and polled for by then.
    const byTime = (records: RawSignal[]) => records.filter((r) => r.ts < liveStart + 50 * 60_000);
    const expected = [...world.rawSignals(shopId, liveStart, liveStart + 50 * 60_000)];
    expect(expected.length).toBeGreaterThan(100);
    const settled = await tail(uploadEveryMs);
    expect(byTime(settled)).toEqual(expected);
    // Not vacuous: a tail that does not wait passes records whose sensor had not uploaded yet.
    const eager = byTime(await tail(0));
    expect(eager.length).toBeLessThan(expected.length);
    // …and what it got, it got once: a sub-multiset of the records.
    const left = new Map<string, number>();
    for (const r of expected) left.set(JSON.stringify(r), (left.get(JSON.stringify(r)) ?? 0) + 1);
    for (const r of eager) {
      const n = left.get(JSON.stringify(r)) ?? 0;
      expect(n).toBeGreaterThan(0);
      left.set(JSON.stringify(r), n - 1);
    }
  });
});


// The spec promises "at most `limit`" records a page, not `limit` until the end: a service may cap
// its pages or cut them at its own boundaries, and a short page must not end a backfill early.
describe("source against a simulator that serves short pages before the end", () => {
  const sizes: readonly [string, number | readonly [number, number]][] = [
    ["capped at 50", 50],
    ["cut at 20–200", [20, 200]],
  ];
  for (const sinceMode of ["inclusive", "exclusive"] as const) {
    for (const [name, pageSize] of sizes) {
      for (const slices of [1, 3]) {
        it(`${sinceMode} since, pages ${name}, ${slices} slice(s): every record of the day once, in order`, async () => {
          const sim = createSimHandler({ seed: SEED, world, sinceMode, pageSize });
          const shopId = world.shops[0]!.id;
          const out = await lastValueFrom(signals(clientOver(sim), { shopId, since: world.startMs, until: world.endMs, limit: 200, slices }).pipe(toArray()));
          expect(out).toEqual([...world.rawSignals(shopId)]);
        });
      }
    }
  }

  it("a backfill without until reads to the end of the data, asking once more to be sure", async () => {
    const sim = createSimHandler({ seed: SEED, world, pageSize: 50 });
    const shopId = world.shops[1]!.id;
    const pages = await lastValueFrom(signalPagesObservable(clientOver(sim), { shopId, since: world.startMs, limit: 200 }).pipe(toArray()));
    const expected = [...world.rawSignals(shopId)];
    expect(pages.flatMap((p) => p.records)).toEqual(expected);
    // Every page but the last is short and brought records; the last brought nothing new.
    expect(pages.at(-1)!.records).toHaveLength(0);
    expect(pages.at(-1)!.done).toBe(true);
    expect(pages.slice(0, -1).every((p) => p.received <= 50 && p.records.length > 0 && !p.caughtUp)).toBe(true);
  });
});
