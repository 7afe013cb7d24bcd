import { describe, expect, it } from "vitest";
import { Observable, Subject, take, type OperatorFunction, type Subscriber } from "rxjs";
import { OperatorObserver } from "../../src/operators/OperatorObserver.ts";
import { decodeSignals } from "../../src/operators/decodeSignals.ts";
import { sessionize } from "../../src/operators/sessionize.ts";

// Sums numbers; throws on a negative one; `finish` emits the sum (or throws when asked to).
class Summing extends OperatorObserver<number, number> {
  #sum = 0;
  constructor(
    destination: Subscriber<number>,
    readonly failOnFinish: boolean,
  ) {
    super(destination);
  }
  next(value: number): void {
    if (this.stopped) return;
    if (value < 0) {
      this.error(new RangeError("negative"));
      return;
    }
    this.#sum += value;
  }
  protected override finish(): void {
    if (this.failOnFinish) throw new Error("flush failed");
    this.destination.next(this.#sum);
  }
}

const summing =
  (failOnFinish = false): OperatorFunction<number, number> =>
  (source) =>
    new Observable<number>((subscriber) => source.subscribe(new Summing(subscriber, failOnFinish)));

function collect<T>(source: Observable<T>) {
  const events: unknown[] = [];
  source.subscribe({ next: (v) => events.push(v), error: (e: Error) => events.push(`error ${e.message}`), complete: () => events.push("complete") });
  return events;
}

describe("OperatorObserver", () => {
  it("feeds values, flushes on completion, then completes", () => {
    const s = new Subject<number>();
    const events = collect(s.pipe(summing()));
    s.next(1);
    s.next(2);
    s.complete();
    expect(events).toEqual([3, "complete"]);
  });

  it("sends a kernel error downstream once and leaves the source", () => {
    const s = new Subject<number>();
    const events = collect(s.pipe(summing()));
    s.next(1);
    s.next(-1);
    expect(s.observed).toBe(false);
    s.next(5);
    s.error(new Error("late"));
    s.complete();
    expect(events).toEqual(["error negative"]);
  });

  it("turns a throw from finish into an error instead of completing", () => {
    const s = new Subject<number>();
    const events = collect(s.pipe(summing(true)));
    s.complete();
    expect(events).toEqual(["error flush failed"]);
  });

  it("forwards a source error once", () => {
    const s = new Subject<number>();
    const events = collect(s.pipe(summing()));
    s.error(new Error("boom"));
    expect(events).toEqual(["error boom"]);
  });

  it("unsubscribing downstream ends the source subscription of a real operator", () => {
    const raw = new Subject<unknown>();
    const row = (ts: number) => ({ row_key: `101:${ts.toString(16).padStart(16, "0")}`, device_id: "f0:18:98:00:00:01", rssi: -50, square_mac: "b8:27:eb:00:00:01", ts, local: false });
    const sessions: unknown[] = [];
    const sub = raw.pipe(decodeSignals(), sessionize({ gapMs: 1_000, allowedLatenessMs: 0 }), take(1)).subscribe((s) => sessions.push(s));
    const t0 = Date.UTC(2026, 10, 16, 1);
    raw.next(row(t0));
    expect(raw.observed).toBe(true);
    raw.next(row(t0 + 10_000)); // closes the first session: take(1) completes and unsubscribes
    expect(sessions).toHaveLength(1);
    expect(raw.observed).toBe(false);
    expect(sub.closed).toBe(true);
  });
});
