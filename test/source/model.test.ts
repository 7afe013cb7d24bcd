import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { signalPagesObservable } from "../../src/source/signalPagesObservable.ts";
import { isTieOverflowError } from "../../src/errors/TieOverflowError.ts";
import type { RawSignal } from "../../src/contract/rawSignal.ts";
import type { SignalPage } from "../../src/source/SignalPage.ts";
import { fakeClient, rtsOf, type FakeRecord } from "./fakeService.ts";

const SHOP = 42;

interface Group {
  readonly gap: number;
  readonly size: number;
}

/**
 * Tie groups: mostly small, some up to 199; field values from tiny alphabets so exact
 * duplicates occur. 199 is the largest group paging can prove complete: a page of 200 that
 * is all one RTS cannot tell "exactly 200" from "more", so that is an overflow.
 */
const groupArb = fc.record({
  gap: fc.integer({ min: 1, max: 3 }),
  size: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1, max: 6 }) }, { weight: 1, arbitrary: fc.integer({ min: 7, max: 199 }) }),
});
const fieldsArb = fc.record({ device: fc.constantFrom("a", "b", "c"), rssi: fc.constantFrom(-50, -60) });

function build(groups: readonly Group[], fields: readonly { device: string; rssi: number }[]): FakeRecord[] {
  const out: FakeRecord[] = [];
  let n = 100;
  let k = 0;
  for (const g of groups) {
    n += g.gap;
    for (let i = 0; i < g.size; i++) {
      const f = fields[k++ % fields.length]!;
      const rts = rtsOf(n);
      out.push({ rts, record: { row_key: `${SHOP}:${rts}`, device_id: f.device, rssi: f.rssi, square_mac: "s", ts: n, local: false } });
    }
  }
  return out;
}

async function runPages(
  data: readonly FakeRecord[],
  sinceMode: "inclusive" | "exclusive",
  options: { since: string; until?: string; limit: number },
): Promise<{ pages: SignalPage[]; error: unknown; requests: number }> {
  const client = fakeClient(data, { sinceMode });
  const pages: SignalPage[] = [];
  const error = await new Promise<unknown>((resolve) =>
    signalPagesObservable(client, { shopId: SHOP, ...options }).subscribe({
      next: (p) => pages.push(p),
      error: resolve,
      complete: () => resolve(undefined),
    }),
  );
  return { pages, error, requests: client.requests.length };
}

const expected = (data: readonly FakeRecord[], since: string, until: string | undefined): RawSignal[] =>
  data.filter((d) => d.rts >= since && (until === undefined || d.rts < until)).map((d) => d.record);

describe("source model (fake services, heavy ties)", () => {
  it("delivers every record exactly once, in order, whatever the limit and since semantics", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(groupArb, { minLength: 0, maxLength: 25 }),
        fc.array(fieldsArb, { minLength: 1, maxLength: 7 }),
        fc.integer({ min: 1, max: 200 }),
        fc.constantFrom("inclusive" as const, "exclusive" as const),
        fc.integer({ min: 95, max: 140 }),
        fc.option(fc.integer({ min: 100, max: 160 }), { nil: undefined }),
        async (groups, fields, limit, sinceMode, sinceN, untilN) => {
          const data = build(groups, fields);
          const since = rtsOf(sinceN);
          const until = untilN === undefined ? undefined : rtsOf(untilN);
          const { pages, error, requests } = await runPages(data, sinceMode, {
            since,
            limit,
            ...(until === undefined ? {} : { until }),
          });
          expect(error).toBeUndefined();
          const want = expected(data, since, until);
          expect(pages.flatMap((p) => p.records)).toEqual(want);
          // Bounded work: at most three requests per page, and each page but the last brings something.
          expect(requests).toBeLessThanOrEqual(3 * (want.length + 1));
          // Bounded memory: the dedupe state never holds more than one tie group.
          const largest = Math.max(0, ...groups.map((g) => g.size));
          for (const p of pages) expect(p.cursor.delivered.length).toBeLessThanOrEqual(largest);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("fails with TieOverflowError after a bounded number of requests when a tie group fills a page of 200", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(groupArb, { minLength: 0, maxLength: 8 }),
        fc.array(groupArb, { minLength: 0, maxLength: 8 }),
        fc.integer({ min: 200, max: 260 }),
        fc.array(fieldsArb, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 200 }),
        fc.constantFrom("inclusive" as const, "exclusive" as const),
        async (before, after, bigSize, fields, limit, sinceMode) => {
          const data = build([...before, { gap: 1, size: bigSize }, ...after], fields);
          const since = rtsOf(100);
          const { pages, error, requests } = await runPages(data, sinceMode, { since, limit });
          expect(isTieOverflowError(error)).toBe(true);
          const got = pages.flatMap((p) => p.records);
          const want = expected(data, since, undefined);
          // What came before the failure is a prefix of the right answer: nothing skipped or repeated.
          expect(got).toEqual(want.slice(0, got.length));
          const beforeCount = before.reduce((s, g) => s + g.size, 0);
          expect(got.length).toBeGreaterThanOrEqual(beforeCount);
          expect(requests).toBeLessThanOrEqual(3 * (got.length + 2));
        },
      ),
      { numRuns: 100 },
    );
  });
});
