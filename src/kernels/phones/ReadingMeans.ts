/**
 * The mean reading per sensor of the MACs (or bursts) taken for one phone's so far: what a next
 * one is held against. Against the mean, not each one: a single reading carries ~4 dB of noise,
 * and ten of one phone all within a few dB of each other is rarer than the phone that sent them.
 * Internal: one burst's MACs (`burstGroups`) and one timer's bursts (`timerTrains`).
 *
 * @example
 * const m = new ReadingMeans();
 * m.add(new Map([["s1", -60]]));
 * m.add(new Map([["s1", -64]]));
 * m.compare(new Map([["s1", -59]]), 6); // { shared: 1, meanDiff: 3 }
 * m.compare(new Map([["s1", -75]]), 6); // undefined
 */
export class ReadingMeans {
  readonly #sum = new Map<string, number>();
  readonly #n = new Map<string, number>();

  /** Takes one more set of readings (dBm by sensor). */
  add(readings: ReadonlyMap<string, number>): void {
    for (const [sensor, v] of readings) {
      this.#sum.set(sensor, (this.#sum.get(sensor) ?? 0) + v);
      this.#n.set(sensor, (this.#n.get(sensor) ?? 0) + 1);
    }
  }

  /**
   * How `readings` compare with the means at the sensors both have: `undefined` when one differs
   * by more than `db`, else how many sensors are shared and the mean difference over them (0 with
   * none shared: a phone that takes a new MAC per channel is heard on each channel by the sensors
   * listening there only).
   */
  compare(readings: ReadonlyMap<string, number>, db: number): { readonly shared: number; readonly meanDiff: number } | undefined {
    let shared = 0;
    let diff = 0;
    for (const [sensor, v] of readings) {
      const n = this.#n.get(sensor);
      if (n === undefined) continue;
      const d = Math.abs(v - this.#sum.get(sensor)! / n);
      if (d > db) return undefined;
      shared++;
      diff += d;
    }
    return { shared, meanDiff: shared > 0 ? diff / shared : 0 };
  }
}
