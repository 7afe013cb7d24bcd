import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { signals } from "../../src/source/signals.ts";
import { splitRange } from "../../src/source/splitRange.ts";
import type { RawSignal } from "../../src/contract/rawSignal.ts";
import type { SignalProgress } from "../../src/source/SignalPage.ts";
import type { SignalsOptions } from "../../src/source/signalsOptions.ts";
import { fakeClient, rtsOf, type FakeClient, type FakeRecord } from "./fakeService.ts";

const SHOP = 9;

function data(groups: readonly { gap: number; size: number }[]): FakeRecord[] {
  const out: FakeRecord[] = [];
  let n = 1_000;
  let k = 0;
  for (const g of groups) {
    n += g.gap;
    for (let i = 0; i < g.size; i++) {
      const rts = rtsOf(n);
      out.push({ rts, record: { row_key: `${SHOP}:${rts}`, device_id: `d${k++ % 3}`, rssi: -50, square_mac: "s", ts: n, local: false } });
    }
  }
  return out;
}

/** Counts the most requests in flight at once. */
function trackConcurrency(client: FakeClient): () => number {
  const original = client.getSignalsPage.bind(client);
  let active = 0;
  let most = 0;
  client.getSignalsPage = async (shopId, request) => {
    active++;
    most = Math.max(most, active);
    try {
      return await original(shopId, request);
    } finally {
      active--;
    }
  };
  return () => most;
}

async function run(
  records: readonly FakeRecord[],
  sinceMode: "inclusive" | "exclusive",
  options: Omit<SignalsOptions, "shopId" | "onProgress">,
) {
  const client = fakeClient(records, { sinceMode });
  const most = trackConcurrency(client);
  const progress: SignalProgress[] = [];
  const got: RawSignal[] = [];
  const error = await new Promise<unknown>((resolve) =>
    signals(client, { shopId: SHOP, ...options, onProgress: (p) => progress.push(p) }).subscribe({
      next: (r) => got.push(r),
      error: resolve,
      complete: () => resolve(undefined),
    }),
  );
  return { got, error, progress, most: most() };
}

describe("parallel backfill (slices)", () => {
  it("splitRange cuts exactly and never yields empty-width ranges", () => {
    expect(splitRange(rtsOf(0), rtsOf(16), 4)).toEqual([rtsOf(0), rtsOf(4), rtsOf(8), rtsOf(12), rtsOf(16)]);
    expect(splitRange(rtsOf(5), rtsOf(7), 8)).toEqual([rtsOf(5), rtsOf(6), rtsOf(7)]);
    expect(splitRange(rtsOf(5), rtsOf(5), 8)).toEqual([rtsOf(5), rtsOf(5)]);
    expect(splitRange("fffffffffffffff0", "ffffffffffffffff", 3)).toEqual([
      "fffffffffffffff0",
      "fffffffffffffff5",
      "fffffffffffffffa",
      "ffffffffffffffff",
    ]);
  });

  it("slices 1, 2 and 4 give identical output, with bounded buffers and concurrency", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ gap: fc.integer({ min: 1, max: 40 }), size: fc.integer({ min: 1, max: 12 }) }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 200 }),
        fc.constantFrom("inclusive" as const, "exclusive" as const),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        async (groups, limit, sinceMode, rangesPerSlice, sliceBufferPages) => {
          const records = data(groups);
          const bounds = { since: rtsOf(990), until: rtsOf(1_000 + 40 * 60), limit };
          const one = await run(records, sinceMode, { ...bounds, slices: 1 });
          expect(one.error).toBeUndefined();
          expect(one.got).toEqual(records.map((r) => r.record));
          for (const slices of [2, 4]) {
            const many = await run(records, sinceMode, { ...bounds, slices, rangesPerSlice, sliceBufferPages });
            expect(many.error).toBeUndefined();
            expect(many.got).toEqual(one.got);
            expect(many.most).toBeLessThanOrEqual(slices);
            for (const p of many.progress) expect(p.bufferedPages).toBeLessThanOrEqual((slices - 1) * sliceBufferPages);
            expect(many.progress.at(-1)).toMatchObject({ done: true, fraction: 1, records: one.got.length });
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("really runs ranges concurrently", async () => {
    const records = data(Array.from({ length: 400 }, () => ({ gap: 5, size: 1 })));
    const many = await run(records, "inclusive", { since: rtsOf(1_000), until: rtsOf(3_100), limit: 10, slices: 4 });
    expect(many.got).toEqual(records.map((r) => r.record));
    expect(many.most).toBe(4);
  });

  it("an error in a later range surfaces after every earlier record, as with one slice", async () => {
    const records = data([
      ...Array.from({ length: 30 }, () => ({ gap: 3, size: 2 })),
      { gap: 3, size: 230 },
      { gap: 3, size: 2 },
    ]);
    const bounds = { since: rtsOf(1_000), until: rtsOf(1_200), limit: 7 };
    const one = await run(records, "exclusive", bounds);
    const four = await run(records, "exclusive", { ...bounds, slices: 4 });
    expect((one.error as Error).name).toBe("TieOverflowError");
    expect((four.error as Error).name).toBe("TieOverflowError");
    expect(four.got.slice(0, 60)).toEqual(one.got.slice(0, 60));
    expect(four.got).toEqual(records.slice(0, four.got.length).map((r) => r.record));
  });
  it("reports a record with an unusable row_key at a seam between ranges once, wherever its true RTS lies", async () => {
    // Ranges of 1 000 units from 1 000 (rangesPerSlice 1, 2 slices → seams at 2 000): bad records
    // just before the seam, far before it and at it, each followed only by a record after it.
    const record = (n: number, rowKey = `${SHOP}:${rtsOf(n)}`): FakeRecord => ({
      rts: rtsOf(n),
      record: { row_key: rowKey, device_id: `d${n}`, rssi: -50, square_mac: "s", ts: n, local: false },
    });
    for (const bad of [1_999, 1_500, 2_000]) {
      const records = [record(1_200), record(bad, "garbage"), record(2_400), record(2_900)];
      for (const sinceMode of ["inclusive", "exclusive"] as const) {
        const invalid: unknown[] = [];
        const { got, error } = await run(records, sinceMode, {
          since: rtsOf(1_000),
          until: rtsOf(3_000),
          slices: 2,
          rangesPerSlice: 1,
          onInvalid: (x) => invalid.push(x.record),
        });
        expect(error).toBeUndefined();
        expect(got).toEqual([1_200, 2_400, 2_900].map((n) => record(n).record));
        expect(invalid).toEqual([records[1]!.record]);
      }
    }
    // A range with no valid record at all (2 000–3 000 of three): the range before it reports.
    for (const bad of [2_500, 1_900, 3_100]) {
      const records = [record(1_200), record(bad, "garbage"), record(3_400), record(3_900)];
      for (const sinceMode of ["inclusive", "exclusive"] as const) {
        const invalid: unknown[] = [];
        const { got, error } = await run(records, sinceMode, { since: rtsOf(1_000), until: rtsOf(4_000), slices: 3, rangesPerSlice: 1, onInvalid: (x) => invalid.push(x.record) });
        expect(error).toBeUndefined();
        expect(got).toEqual([1_200, 3_400, 3_900].map((n) => record(n).record));
        expect(invalid).toEqual([records[1]!.record]);
      }
    }
  });
});
