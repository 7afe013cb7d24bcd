import type { Signal } from "../../codec/Signal.ts";
import { checkNumberOption } from "../../options/checkNumberOption.ts";

/**
 * A strict order of signals for {@link EventTimeReorder}: true when `a` comes before `b`. It must
 * order by `time` first (earlier first); the rest only breaks ties of equal times.
 *
 * @example
 * const byTimeThenSensor: SignalOrder = (a, b) => (a.time !== b.time ? a.time < b.time : a.sensor < b.sensor);
 */
export type SignalOrder = (a: Signal, b: Signal) => boolean;

/**
 * Options of {@link EventTimeReorder}.
 *
 * @example
 * const options: EventTimeReorderOptions = { allowedLatenessMs: 30_000 };
 */
export interface EventTimeReorderOptions {
  /**
   * How far (ms of event time) a signal may arrive behind the newest one seen and still be
   * taken; the watermark is the newest time − this. The trackers' `allowedLatenessMs`.
   * @default 60_000
   */
  readonly allowedLatenessMs?: number;
  /**
   * Canonical order of the held signals, so equal times never depend on arrival order.
   * @default canonicalSignalOrder (time, device, sensor, RSSI, `local`, RTS)
   */
  readonly order?: SignalOrder;
}

/**
 * Canonical order of signals: event time, then device, sensor, RSSI, the service's `local` flag
 * and RTS, so equal times never depend on arrival order. The session tracker's order (sessions
 * with equal ends come out in it). Everything a session is made of comes before the RTS, which
 * only orders signals that differ in nothing else the engine reads: where no signal is handed
 * out, the RTS need not be known (see `SignalBatchWriter`'s `rts`).
 *
 * @example
 * [...signals].sort((a, b) => (canonicalSignalOrder(a, b) ? -1 : canonicalSignalOrder(b, a) ? 1 : 0));
 */
export function canonicalSignalOrder(a: Signal, b: Signal): boolean {
  if (a.time !== b.time) return a.time < b.time;
  if (a.device !== b.device) return a.device < b.device;
  if (a.sensor !== b.sensor) return a.sensor < b.sensor;
  if (a.rssi !== b.rssi) return a.rssi < b.rssi;
  if (a.local !== b.local) return b.local;
  return a.rts < b.rts;
}

/**
 * Defaults of {@link EventTimeReorderOptions}.
 *
 * @example
 * defaultEventTimeReorder.allowedLatenessMs; // 60000
 */
export const defaultEventTimeReorder = Object.freeze({
  allowedLatenessMs: 60_000,
  order: canonicalSignalOrder as SignalOrder,
});

/** A signal that overtakes more held signals than this goes to the heap instead of being walked into place. */
const DEEP = 64;

/** Released slots are reused from the front once this many are free and they are the majority. */
const COMPACT_AFTER = 1024;

/**
 * The event-time rule of one shop's signals, in one place for every tracker: a watermark
 * (newest event time seen − `allowedLatenessMs`), a signal behind it is late and not taken, and
 * the others are held in canonical order until the watermark passes them, then handed out in
 * that order — so any arrival order within the allowed lateness gives the same sequence.
 *
 * The buffer is one array used from `head` to `end` and compacted in place now and then; it
 * never shrinks, so a steady stream neither allocates nor copies after warm-up. Memory: the
 * signals within the lateness horizon.
 *
 * @example
 * const lane = new EventTimeReorder({ allowedLatenessMs: 60_000 });
 * for (const signal of signals) {
 *   const before = lane.watermark;
 *   if (!lane.add(signal)) continue; // late
 *   if (lane.watermark === before) continue;
 *   for (let s = lane.take(lane.watermark); s !== undefined; s = lane.take(lane.watermark)) apply(s);
 * }
 * for (let s = lane.take(Infinity); s !== undefined; s = lane.take(Infinity)) apply(s);
 */
export class EventTimeReorder {
  /** Newest event time added, epoch ms (−∞ before the first). */
  maxSeen = Number.NEGATIVE_INFINITY;
  /**
   * Newest event time − allowed lateness, epoch ms (−∞ before the first signal). Only rises; a
   * caller may raise it further (e.g. to `maxSeen` once the input has ended).
   */
  watermark = Number.NEGATIVE_INFINITY;
  readonly #lateness: number;
  readonly #order: SignalOrder;
  readonly #buffer: (Signal | undefined)[] = [];
  readonly #deep: Signal[] = [];
  #head = 0;
  #end = 0;

  /** @param options see {@link EventTimeReorderOptions}; validated here (TypeError/RangeError) */
  constructor(options: EventTimeReorderOptions = {}) {
    this.#lateness = checkNumberOption("allowedLatenessMs", options.allowedLatenessMs ?? defaultEventTimeReorder.allowedLatenessMs, {
      min: 0,
      unit: "ms",
    });
    const order = options.order ?? defaultEventTimeReorder.order;
    if (typeof order !== "function") throw new TypeError("order must be a function (a, b) => boolean");
    this.#order = order;
  }

  /** Signals held now. */
  get size(): number {
    return this.#end - this.#head + this.#deep.length;
  }

  /**
   * Holds `signal` in canonical order and moves the watermark up with its time. Returns false,
   * changing nothing, when the signal is behind the watermark (or its time is NaN): it is late.
   */
  add(signal: Signal): boolean {
    const t = signal.time;
    // `!(t >= w)` also rejects NaN.
    if (!(t >= this.watermark)) return false;
    const buffer = this.#buffer;
    const end = this.#end;
    const head = this.#head;
    const order = this.#order;
    if (end > head && buffer[end - 1]!.time >= t && order(signal, buffer[end - 1]!)) {
      // Out of order. Its place: a few steps back (the usual case: a burst's frames from several
      // sensors, ms apart, or equal times), else a binary search over the rest. The ones it
      // overtook move up one slot; when many (a sensor whose clock ran hours ahead, aligned:
      // hours of signals), moving them would make delivery quadratic, so it goes to a heap.
      let lo = end - 1;
      while (lo > head && order(signal, buffer[lo - 1]!)) {
        if (end - lo >= 8) {
          let hi = lo - 1;
          lo = head;
          while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (order(signal, buffer[mid]!)) hi = mid;
            else lo = mid + 1;
          }
          break;
        }
        lo--;
      }
      if (end - lo > DEEP) {
        // Overtook many: into the heap of deep stragglers (O(log n)), merged back by take.
        this.#pushDeep(signal);
        this.#raise(t);
        return true;
      }
      for (let i = end; i > lo; i--) {
        if (i === buffer.length) buffer.push(buffer[i - 1]);
        else buffer[i] = buffer[i - 1];
      }
      buffer[lo] = signal;
    } else if (end === buffer.length) {
      // In-order delivery, the common case: appended.
      buffer.push(signal);
    } else {
      buffer[end] = signal;
    }
    this.#end = end + 1;
    this.#raise(t);
    return true;
  }

  /**
   * Moves the watermark up with a time held elsewhere (a device split's other shares' records,
   * `TickQueue`), as {@link add} would; returns false, changing nothing, when it is late.
   */
  see(t: number): boolean {
    if (!(t >= this.watermark)) return false;
    this.#raise(t);
    return true;
  }

  #raise(t: number): void {
    if (t > this.maxSeen) {
      this.maxSeen = t;
      const w = t - this.#lateness;
      if (w > this.watermark) this.watermark = w;
    }
  }

  // Binary min-heap (by the order) of signals that overtook more than DEEP held ones.
  #pushDeep(signal: Signal): void {
    const heap = this.#deep;
    const order = this.#order;
    let i = heap.length;
    heap.push(signal);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!order(signal, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = signal;
  }

  #popDeep(): Signal {
    const heap = this.#deep;
    const order = this.#order;
    const top = heap[0]!;
    const last = heap.pop()!;
    const n = heap.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && order(heap[r]!, heap[l]!) ? r : l;
        if (!order(heap[c]!, last)) break;
        heap[i] = heap[c]!;
        i = c;
      }
      heap[i] = last;
    }
    return top;
  }

  /**
   * Removes and returns the oldest held signal if its time is earlier than `until` (epoch ms;
   * usually the watermark, `Infinity` to drain), else `undefined`. Signals come out in canonical
   * order. Strictly earlier, so signals at the watermark, which may still gain equal-time
   * company, stay held.
   */
  take(until: number): Signal | undefined {
    const head = this.#head;
    const deep = this.#deep;
    // The common case first, as short as it was before there were deep stragglers to merge.
    if (deep.length === 0) {
      if (head < this.#end) {
        const buffer = this.#buffer;
        const s = buffer[head]!;
        if (s.time < until) {
          // Cleared, so a released signal is not kept alive by its old slot.
          buffer[head] = undefined;
          this.#head = head + 1;
          return s;
        }
      }
    } else {
      const inRun = head < this.#end ? this.#buffer[head]! : undefined;
      if (inRun === undefined || this.#order(deep[0]!, inRun)) {
        if (deep[0]!.time < until) return this.#popDeep();
      } else if (inRun.time < until) {
        this.#buffer[head] = undefined;
        this.#head = head + 1;
        return inRun;
      }
    }
    this.#compact();
    return undefined;
  }

  #compact(): void {
    const head = this.#head;
    if (head === this.#end) {
      // Drained: only by take(Infinity) at the end of input (the newest signal is never behind
      // the watermark), so give the memory back.
      this.#buffer.length = 0;
      this.#head = this.#end = 0;
    } else if (head >= COMPACT_AFTER && head * 2 >= this.#end) {
      const buffer = this.#buffer;
      const end = this.#end;
      // A plain loop: V8's copyWithin takes a generic per-element path for object arrays, ~10× slower.
      // Slots past the new end keep copies of signals now held at the front (or already
      // cleared ones), so nothing released stays reachable for long; they are overwritten as
      // the buffer refills.
      for (let i = head; i < end; i++) buffer[i - head] = buffer[i];
      this.#head = 0;
      this.#end = end - head;
    }
  }
}
