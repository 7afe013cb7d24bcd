import type { Client, SignalsPageRequest } from "../../src/client/Client.ts";
import type { RawSignal, SignalsResponse } from "../../src/contract/rawSignal.ts";

/** A record held by the fake service, with the scheduler time from which it is visible. */
export interface FakeRecord {
  readonly record: RawSignal;
  /** RTS used for ordering (normally the row_key's; set explicitly for malformed row_keys). */
  readonly rts: string;
  readonly visibleFrom?: number;
}

export interface FakeServiceOptions {
  /** Inclusive: since ≤ rts; exclusive: since < rts. */
  readonly sinceMode: "inclusive" | "exclusive";
  /** Scheduler time for visibility (tail tests). */
  readonly now?: () => number;
  /** Called before each request is answered; may throw to simulate a failure. */
  readonly beforeAnswer?: (request: { since: string; limit: number; index: number }) => void;
  /** Return a page that is not yet settled: keep the promise pending until aborted. */
  readonly hang?: (index: number) => boolean;
  /**
   * Hand each answer's body text to the request's `onBody` before answering, as `createClient`
   * does: `true` for the answer as JSON, or a function that writes the text.
   */
  readonly body?: true | ((answer: SignalsResponse) => string);
}

export interface FakeClient extends Client {
  /** Every request; `afterBody`: how many had been sent once its body was handed over (with `body`). */
  readonly requests: { since: string; limit: number; shopId: number; aborted: boolean; afterBody?: number }[];
  /** Adds records (kept sorted by rts, stable for equal rts). */
  add(records: readonly FakeRecord[]): void;
  /** Requests currently awaiting an answer. */
  inFlight(): number;
}

const notUsed = (): never => {
  throw new Error("not used by the source tests");
};

/**
 * A fake signals service over an in-memory list: ascending RTS, stable among equal RTS,
 * `since` inclusive or exclusive, at most `limit` records, honours AbortSignal.
 */
export function fakeClient(initial: readonly FakeRecord[], options: FakeServiceOptions): FakeClient {
  const data: FakeRecord[] = [];
  const requests: FakeClient["requests"] = [];
  let inFlight = 0;
  const add = (records: readonly FakeRecord[]): void => {
    for (const r of records) {
      // Insert after every record with rts ≤ r.rts: keeps equal RTS in insertion order.
      let i = data.length;
      while (i > 0 && data[i - 1]!.rts > r.rts) i--;
      data.splice(i, 0, r);
    }
  };
  add(initial);
  return {
    requests,
    add,
    inFlight: () => inFlight,
    listBrands: notUsed,
    findBrand: notUsed,
    getShopByExternalKey: notUsed,
    uploadDailySales: notUsed,
    async getSignalsPage(shopId: number, request: SignalsPageRequest = {}): Promise<SignalsResponse> {
      const since = request.since ?? "0000000000000000";
      const limit = request.limit ?? 20;
      const signal = request.signal;
      const entry: FakeClient["requests"][number] = { since, limit, shopId, aborted: false };
      const index = requests.push(entry) - 1;
      signal?.throwIfAborted();
      inFlight++;
      try {
        // Answer on a later microtask, abortable meanwhile, like a real request.
        await new Promise<void>((resolve, reject) => {
          const onAbort = (): void => {
            entry.aborted = true;
            reject(signal!.reason);
          };
          signal?.addEventListener("abort", onAbort, { once: true });
          if (options.hang?.(index) === true) return;
          queueMicrotask(() => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          });
        });
        options.beforeAnswer?.({ since, limit, index });
        const now = options.now?.() ?? 0;
        const out: RawSignal[] = [];
        for (const r of data) {
          if (out.length >= limit) break;
          if ((r.visibleFrom ?? 0) > now) continue;
          if (options.sinceMode === "inclusive" ? r.rts < since : r.rts <= since) continue;
          out.push(r.record);
        }
        const answer = { signals: out, since };
        if (options.body !== undefined) {
          request.onBody?.(options.body === true ? JSON.stringify(answer) : options.body(answer));
          entry.afterBody = requests.length;
        }
        return answer;
      } finally {
        inFlight--;
      }
    },
  };
}

/** 16 hex digits of `n`. */
export function rtsOf(n: number): string {
  return n.toString(16).padStart(16, "0");
}

let serial = 0;
/** A valid record of shop `shopId` at integer RTS `n`. */
export function makeRecord(shopId: number, n: number, overrides: Partial<RawSignal> = {}): FakeRecord {
  serial++;
  const record: RawSignal = {
    row_key: `${shopId}:${rtsOf(n)}`,
    device_id: `d${serial}`,
    rssi: -40 - (serial % 50),
    square_mac: "b8:27:eb:00:00:01",
    ts: n,
    local: true,
    ...overrides,
  };
  return { record, rts: rtsOf(n) };
}
