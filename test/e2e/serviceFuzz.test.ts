/**
 * Random services — seeded, so a failure names the service that reproduces it — read by the
 * source as `footfall signals backfill` reads them, checking the one promise a backfill makes:
 * every record the service holds for the range is delivered once, in order, or (when the service
 * sent it broken) reported once with the decoder's reason; nothing else, whatever the service's
 * reading of the spec and its faults. Services range over `since` inclusive or exclusive, RTS in
 * s, ms, µs or ns, spelled in lowercase or uppercase hex, padded or not (`since` then compared by
 * bytes, as a key-value store does), and as the time a record was collected or received (batching sensors),
 * the unit of `ts` and whether it is quoted, pages capped or cut at their own sizes, broken records,
 * failures, throttling and bodies cut short, and the client's `limit` and slices; half the reads
 * stop part-way and resume from their checkpoint.
 *
 * CI runs a few; `SERVICE_FUZZ=200 npx vitest run test/e2e/serviceFuzz.test.ts` runs many
 * (`SERVICE_FUZZ_FROM=800` starts at service 800).
 */
import { lastValueFrom, take, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { SignalDecoder, type InvalidRecord } from "../../src/codec/decodeSignal.ts";
import { createClient } from "../../src/client/createClient.ts";
import { BROKEN_KINDS, brokenKind } from "../../src/sim/service/brokenRecord.ts";
import { createSimHandler, type SimulatorOptions } from "../../src/sim/service/createSimHandler.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import { createRng, hashSeed } from "../../src/sim/random/prng.ts";
import { signals } from "../../src/source/signals.ts";
import { memoryCursorStore } from "../../src/source/memoryCursorStore.ts";
import { microsRts, millisRts, nanosRts, secondsRts } from "../../src/codec/rts.ts";
import { rtsOfMillis } from "../../src/sim/service/serviceRts.ts";
import { spellRts } from "../../src/codec/rtsSpelling.ts";
import { isTieOverflowError } from "../../src/errors/TieOverflowError.ts";

const SERVICES = Number(process.env.SERVICE_FUZZ ?? 8);
const FIRST = Number(process.env.SERVICE_FUZZ_FROM ?? 0);
const FAST_RETRY = { retries: 40, minTimeout: 1, maxTimeout: 2, maxRetryAfterMs: 2 };

/** Service `i` and how the client reads it. */
function drawService(i: number) {
  const r = createRng(hashSeed("service-fuzz", i));
  const world = {
    seed: i,
    shops: 1,
    visitorsPerDay: r.int(5, 60),
    passersByPerDay: r.int(0, 200),
    staffPerShop: r.int(0, 1),
    stationaryPerShop: 0,
    openingHours: [10, 10 + r.int(1, 4)] as const,
    // RTS the time the service received a record (sensors uploading in batches): ts out of RTS order.
    ...(r.chance(0.3) ? { sensorUploadEveryMs: r.int(5_000, 300_000) } : {}),
  };
  const pageSize = r.pick([undefined, r.int(2, 199), [r.int(2, 50), r.int(60, 200)] as const]);
  const service: SimulatorOptions = {
    seed: i,
    sinceMode: r.pick(["inclusive", "exclusive"] as const),
    tsUnit: r.pick(["s", "ms", "us", "ns"] as const),
    // What the RTS counts; the client is told (footfall --rts-unit), as a user would be.
    rtsUnit: r.pick(["ms", "ms", "s", "us", "ns"] as const),
    tsQuoted: r.chance(0.5),
    ...(pageSize === undefined ? {} : { pageSize }),
    faults: {
      malformedRate: r.pick([0, 0.002, 0.02, 0.1]),
      failRate: r.pick([0, 0.1]),
      throttleRate: r.pick([0, 0.1]),
      truncateRate: r.pick([0, 0.1]),
    },
  };
  // Half the reads stop after a share of the records and resume from their checkpoint.
  const stopAt = r.chance(0.5) ? Math.round(r.uniform(0.05, 0.95) * 100) / 100 : undefined;
  const limit = r.pick([r.int(1, 20), r.int(21, 199), 200]);
  const slices = r.pick([1, 1, 2, 3]);
  // Drawn last, so the services drawn before it was added stay as they were.
  const rtsCase = r.pick(["lower", "lower", "upper"] as const);
  const rtsPadded = r.chance(0.75);
  return { world, service: { ...service, rtsCase, rtsPadded }, limit, slices, stopAt };
}

describe("source against random services", () => {
  for (let i = FIRST; i < FIRST + SERVICES; i++) {
    const drawn = drawService(i);
    it(`service ${i}: every record once, in order, or reported once: ${JSON.stringify(drawn)}`, async () => {
      const world = createWorld(drawn.world);
      const sim = createSimHandler({ ...drawn.service, world });
      const client = createClient({ baseUrl: "http://sim", signalUrl: "http://sim", email: sim.email, token: sim.token, fetch: sim.fetch, retry: FAST_RETRY });
      const shopId = world.shops[0]!.id;
      const rtsUnit = drawn.service.rtsUnit!;
      const codec = { s: secondsRts, ms: millisRts, us: microsRts, ns: nanosRts }[rtsUnit];
      // The records as the service holds them: row_keys with the RTS in its unit.
      const spell = (rts: string) => spellRts(rts, { upper: drawn.service.rtsCase === "upper", padded: drawn.service.rtsPadded! });
      const held = [...world.rawSignals(shopId)].map((r) => ({ ...r, row_key: `${shopId}:${spell(rtsOfMillis(Number.parseInt(r.row_key.slice(-16), 16), rtsUnit))}` }));
      const kinds = held.map((_, k) => brokenKind(hashSeed(drawn.service.seed!, "malformed"), shopId, k, drawn.service.faults!.malformedRate!));
      const invalid: InvalidRecord[] = [];
      const decoder = new SignalDecoder({ shopId, rtsCodec: codec, onInvalid: (x) => invalid.push(x) });
      const options = { shopId, since: world.startMs, until: world.endMs, rtsCodec: codec, limit: drawn.limit, slices: drawn.slices, onInvalid: (x: InvalidRecord) => decoder.reject(x), checkpoint: memoryCursorStore() };
      const read = (async () => {
        const first = drawn.stopAt === undefined ? [] : await lastValueFrom(signals(client, options).pipe(take(Math.round(held.length * drawn.stopAt)), toArray()));
        return [...first, ...(await lastValueFrom(signals(client, options).pipe(toArray())))];
      })();
      // A group of records at one RTS larger than every page the service serves cannot be read
      // past: then, and only then, a TieOverflowError instead of a silent loss.
      const group = new Map<string, number>();
      for (const r of held) group.set(r.row_key, (group.get(r.row_key) ?? 0) + 1);
      const largestGroup = Math.max(...group.values());
      const cap = drawn.service.pageSize;
      const smallestPage = Math.min(drawn.limit, cap === undefined ? 200 : typeof cap === "number" ? cap : cap[0]);
      const out = await read.catch((error: unknown) => {
        if (isTieOverflowError(error) && largestGroup >= smallestPage) return undefined;
        throw error;
      });
      if (out === undefined) return;
      // The records as the service holds them (ts in its unit), decoded: the same signals, whatever it sent.
      const unit = drawn.service.tsUnit!;
      const scale = (ts: number) => (unit === "s" ? Math.floor(ts / 1000) : unit === "us" ? ts * 1e3 : unit === "ns" ? ts * 1e6 : ts);
      const whole = held.filter((_, k) => kinds[k]! < 0).map((r) => ({ ...r, ts: scale(r.ts) }));
      expect(decoder.decodeAll(out)).toEqual(new SignalDecoder({ shopId, rtsCodec: codec }).decodeAll(whole));
      const tally = (reasons: readonly string[]) => [...new Set(reasons)].sort().map((x) => [x, reasons.filter((y) => y === x).length]);
      expect(tally(invalid.map((x) => x.reason))).toEqual(tally(kinds.filter((k) => k >= 0).map((k) => BROKEN_KINDS[k]!.reason)));
    });
  }
});
