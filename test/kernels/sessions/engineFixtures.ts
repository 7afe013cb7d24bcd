/**
 * Signals and a run of the `EventTimeEngine` shared by its tests (EventTimeEngine.test.ts) and
 * those of the proximity it computes (SessionProximityAccumulator.test.ts).
 */
import type { Signal } from "../../../src/codec/Signal.ts";
import { EventTimeEngine, type EngineSink, type EventTimeEngineOptions } from "../../../src/kernels/sessions/EventTimeEngine.ts";
import type { Session } from "../../../src/kernels/sessions/Session.ts";
import type { ProximitySlice } from "../../../src/kernels/proximity/SessionProximity.ts";

export const A = "b8:27:eb:00:00:0a";
export const B = "b8:27:eb:00:00:0b";
export const C = "b8:27:eb:00:00:0c";
export const PHONE = "f0:18:98:12:34:56";
export const T0 = 1_763_600_000_000; // a multiple of 10 s

/** A proximity test signal: shop 101, given sensor and RSSI. */
export function ps(time: number, sensor: string, rssi: number, device = PHONE, shopId = 101): Signal {
  return { shopId, rts: "0000000000000000", time, device, rssi, sensor, local: false, randomized: false, vendor: undefined };
}

export function run(signals: readonly Signal[], options: EventTimeEngineOptions = {}, { flush = true, slices: withSlices = true } = {}) {
  const sessions: Session[] = [];
  const late: [Signal, number][] = [];
  const slices: ProximitySlice[] = [];
  const sink: EngineSink = { emit: (s) => sessions.push(s), late: (s, w) => late.push([s, w]) };
  if (withSlices && options.proximity !== false) sink.slice = (s) => slices.push(s);
  const engine = new EventTimeEngine(options, sink);
  for (const s of signals) engine.push(s);
  if (flush) engine.flush();
  return { sessions, late: late.map(([s]) => s), lateWithWatermark: late, slices, engine };
}

export const byStart = <T extends { start: number; device: string; shopId: number }>(list: readonly T[]): T[] =>
  [...list].sort((a, b) => a.shopId - b.shopId || a.start - b.start || (a.device < b.device ? -1 : a.device > b.device ? 1 : 0));
// Progress fields describe arrival, not content.
export const content = (s: Session) => ({ ...s, watermark: 0, complete: 0 });
