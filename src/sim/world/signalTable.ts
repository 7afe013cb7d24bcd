import type { ShopSignals } from "./World.ts";

/**
 * Growable columns a shop's signals are appended to while the world is generated, in
 * any time order; {@link SignalColumns.finish} sorts them into a {@link ShopSignals}.
 *
 * A record's `time` is when the service has it (its RTS); its sensor's stamp (`ts`) is the same
 * unless given apart — a sensor that uploads in batches, whose records the service receives
 * after they were heard: `time` is then the upload, and `finish` spreads each upload's records
 * over successive milliseconds in the order they were stamped, as a service storing them one by
 * one would (one RTS for a whole batch would be a group no page could get past).
 *
 * @example
 * const cols = new SignalColumns(1024);
 * cols.push(1000, 0, 1, -60);
 * cols.push(181_000, 0, 0, -70, 1_020); // heard at 1 020, uploaded at 181 000
 * const table = cols.finish(101, ["02:00:00:00:00:01"], ["b8:27:eb:00:00:01", "b8:27:eb:00:00:02"]);
 * table.ts[1]; // 1020
 */
export class SignalColumns {
  time: Float64Array;
  device: Uint32Array;
  sensor: Uint8Array;
  rssi: Int8Array;
  /** Sensor stamps, created by the first record stamped apart from its `time` (until then: `time`). */
  stamp: Float64Array | undefined;
  length = 0;

  constructor(capacity: number) {
    const n = Math.max(16, capacity | 0);
    this.time = new Float64Array(n);
    this.device = new Uint32Array(n);
    this.sensor = new Uint8Array(n);
    this.rssi = new Int8Array(n);
  }

  /** Appends one record: `time` when the service has it, `stamp` its sensor's `ts` (integer epoch ms). */
  push(time: number, device: number, sensor: number, rssi: number, stamp = time): void {
    if (this.length === this.time.length) this.grow();
    const i = this.length++;
    this.time[i] = time;
    this.device[i] = device;
    this.sensor[i] = sensor;
    this.rssi[i] = rssi;
    if (this.stamp !== undefined) this.stamp[i] = stamp;
    else if (stamp !== time) {
      this.stamp = new Float64Array(this.time.length);
      this.stamp.set(this.time.subarray(0, i));
      this.stamp[i] = stamp;
    }
  }

  private grow(): void {
    const n = this.time.length * 2;
    const time = new Float64Array(n);
    time.set(this.time);
    const device = new Uint32Array(n);
    device.set(this.device);
    const sensor = new Uint8Array(n);
    sensor.set(this.sensor);
    const rssi = new Int8Array(n);
    rssi.set(this.rssi);
    this.time = time;
    this.device = device;
    this.sensor = sensor;
    this.rssi = rssi;
    if (this.stamp !== undefined) {
      const stamp = new Float64Array(n);
      stamp.set(this.stamp);
      this.stamp = stamp;
    }
  }

  /**
   * Sorts by time, keeping insertion order among equal times (a stable LSD radix sort on
   * the time offset, O(n)), and returns the immutable table with its binary searches. Records
   * stamped apart from their time (uploaded in batches) are first spread over successive ms
   * within their upload, in stamp order (see the class comment).
   */
  finish(shopId: number, devices: readonly string[], sensors: readonly string[]): ShopSignals {
    const n = this.length;
    const stamps = this.stamp?.subarray(0, n);
    const keys = stamps === undefined ? this.time : receivedTimes(this.time, stamps, n);
    const order = stableTimeOrder(keys, n);
    const time = new Float64Array(n);
    const ts = stamps === undefined ? time : new Float64Array(n);
    const device = new Uint32Array(n);
    const sensor = new Uint8Array(n);
    const rssi = new Int8Array(n);
    for (let i = 0; i < n; i++) {
      const j = order[i]!;
      time[i] = keys[j]!;
      if (stamps !== undefined) ts[i] = stamps[j]!;
      device[i] = this.device[j]!;
      sensor[i] = this.sensor[j]!;
      rssi[i] = this.rssi[j]!;
    }
    const deviceLocal = new Uint8Array(devices.length);
    for (let d = 0; d < devices.length; d++) {
      deviceLocal[d] = (Number.parseInt(devices[d]!.slice(0, 2), 16) & 0x02) !== 0 ? 1 : 0;
    }
    return {
      shopId,
      count: n,
      time,
      ts,
      device,
      sensor,
      rssi,
      devices,
      deviceLocal,
      sensors,
      lowerBound: (ms) => search(time, n, ms, false),
      upperBound: (ms) => search(time, n, ms, true),
    };
  }
}

// The RTS of records uploaded in batches: an upload's records (equal `time`, the upload instant)
// one ms apart in stamp order — so the service holds them in the order their sensor heard them,
// and a later upload may begin before an earlier long one has been stored.
function receivedTimes(time: Float64Array, stamps: Float64Array, n: number): Float64Array {
  const byStamp = stableTimeOrder(stamps, n);
  // Stable by upload over the stamp order: each upload's records in stamp order.
  const order = stableTimeOrder(Float64Array.from(byStamp, (j) => time[j]!), n);
  const out = new Float64Array(n);
  let run = Number.NaN;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const j = byStamp[order[i]!]!;
    const t = time[j]!;
    k = t === run ? k + 1 : 0;
    run = t;
    out[j] = t + k;
  }
  return out;
}

function search(time: Float64Array, n: number, ms: number, strict: boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const t = time[mid]!;
    if (t < ms || (strict && t === ms)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Permutation sorting `time[0..n)` ascending, stable: LSD radix over 16-bit digits of the offset. */
function stableTimeOrder(time: Float64Array, n: number): Uint32Array {
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n < 2) return order;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = time[i]!;
    if (t < min) min = t;
    if (t > max) max = t;
  }
  const span = max - min;
  let passes = 1;
  while (span >= 65536 ** passes) passes++;
  let next = new Uint32Array(n);
  const counts = new Uint32Array(65537);
  for (let p = 0; p < passes; p++) {
    const div = 65536 ** p;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(Math.floor((time[i]! - min) / div) % 65536) + 1]!++;
    for (let k = 1; k <= 65536; k++) counts[k]! += counts[k - 1]!;
    for (let i = 0; i < n; i++) {
      const j = order[i]!;
      next[counts[Math.floor((time[j]! - min) / div) % 65536]!++] = j;
    }
    const tmp = order;
    order = next;
    next = tmp;
  }
  return order;
}
