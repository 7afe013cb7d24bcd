import type { Signal } from "../../src/codec/Signal.ts";

/** Test helper: a decoded signal with sensible defaults. */
export function sig(time: number, device = "aa:00:00:00:00:01", rssi = -60, extra: Partial<Signal> = {}): Signal {
  return {
    shopId: extra.shopId ?? 1,
    rts: extra.rts ?? time.toString(16).padStart(16, "0"),
    time,
    device,
    rssi,
    sensor: extra.sensor ?? "b8:27:eb:00:00:01",
    local: extra.local ?? false,
    randomized: extra.randomized ?? false,
    vendor: "vendor" in extra ? extra.vendor : "Test Inc.",
  };
}

export const MIN = 60_000;
export const HOUR = 3_600_000;

/**
 * Test helper: `signals` in the order they arrive when each is delayed by `delays[i]` ms (a
 * shuffle within the largest delay, as a batching sensor or a slow network gives).
 */
export function arrivalOrder(signals: readonly Signal[], delays: readonly number[]): Signal[] {
  return signals
    .map((s, i) => ({ s, key: s.time + delays[i]! }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.s);
}
