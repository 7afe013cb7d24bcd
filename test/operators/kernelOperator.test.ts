import { describe, expect, it } from "vitest";
import { Observable, Subject, Subscriber, Subscription, from, lastValueFrom, map, take, toArray, type Observer } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import type { Kernel } from "../../src/kernels/sessions/Sink.ts";
import { kernelOperator } from "../../src/operators/kernelOperator.ts";
import { decodeSignals } from "../../src/operators/decodeSignals.ts";
import { sessionize } from "../../src/operators/sessionize.ts";

/** Sums numbers; throws on a negative one; `flush` emits the sum (or throws when asked to). */
function summing(options: { failOnFlush?: boolean; kernels?: Kernel<number>[]; flushes?: number[] } = {}) {
  return kernelOperator<number, number>((emit) => {
    let sum = 0;
    const kernel: Kernel<number> = {
      push: (x) => {
        if (x < 0) throw new RangeError("negative");
        sum += x;
        if (x === 100) emit(sum); // a kernel may emit while pushing
      },
      flush: () => {
        options.flushes?.push(sum);
        if (options.failOnFlush === true) throw new Error("flush failed");
        emit(sum);
      },
    };
    options.kernels?.push(kernel);
    return kernel;
  });
}

function collect<T>(source: Observable<T>) {
  const events: unknown[] = [];
  const subscription = source.subscribe({
    next: (v) => events.push(v),
    error: (e: Error) => events.push(`error ${e.message}`),
    complete: () => events.push("complete"),
  });
  return { events, subscription };
}

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe("kernelOperator", () => {
  it("pins RxJS 7: the source is subscribed with the operator's own observer, not a SafeSubscriber wrapping it", () => {
    const kernels: Kernel<number>[] = [];
    const seen: unknown[] = [];
    const source = new Observable<number>((subscriber) => {
      seen.push(subscriber);
      subscriber.next(1);
      subscriber.next(2);
      subscriber.complete();
    });
    const { events } = collect(source.pipe(summing({ kernels })));
    expect(events).toEqual([3, "complete"]);
    expect(seen).toHaveLength(1);
    const observer = seen[0] as Subscription & Observer<number> & { kernels?: readonly unknown[] };
    // If a future RxJS wraps the object (a SafeSubscriber is a Subscriber), results stay right
    // but each value pays for the wrappers again: this must fail then.
    expect(observer).not.toBeInstanceOf(Subscriber);
    expect(observer).toBeInstanceOf(Subscription);
    // It is the very object kernelOperator created: the one holding the kernel it made.
    expect(kernels).toHaveLength(1);
    expect(observer.kernels).toEqual([kernels[0]]);
    // Completion went through it, and it closed itself.
    expect(observer.closed).toBe(true);
  });

  it("pins RxJS 7: a value from the source reaches the kernel's push directly, in the same call", () => {
    const calls: string[] = [];
    let subscriberOfSource: Subscriber<number> | undefined;
    const source = new Observable<number>((subscriber) => {
      subscriberOfSource = subscriber;
    });
    const op = kernelOperator<number, number>(() => ({ push: (x) => void calls.push(`push ${x}`), flush: () => {} }));
    collect(source.pipe(op));
    calls.push("before");
    subscriberOfSource!.next(7);
    calls.push("after");
    expect(calls).toEqual(["before", "push 7", "after"]);
  });

  it("feeds values, flushes on completion (what it emits goes before complete), then completes", () => {
    const s = new Subject<number>();
    const { events } = collect(s.pipe(summing()));
    s.next(1);
    s.next(100);
    expect(events).toEqual([101]);
    s.next(2);
    s.complete();
    expect(events).toEqual([101, 103, "complete"]);
    expect(s.observed).toBe(false);
  });

  it("sends a throw from push downstream once as an error and leaves the source; later notifications are ignored", () => {
    const s = new Subject<number>();
    const flushes: number[] = [];
    const { events, subscription } = collect(s.pipe(summing({ flushes })));
    s.next(1);
    s.next(-1);
    expect(s.observed).toBe(false);
    s.next(5);
    s.error(new Error("late"));
    s.complete();
    expect(events).toEqual(["error negative"]);
    expect(flushes).toEqual([]); // not flushed after an error
    expect(subscription.closed).toBe(true);
  });

  it("turns a throw from flush into an error instead of completing", () => {
    const s = new Subject<number>();
    const { events } = collect(s.pipe(summing({ failOnFlush: true })));
    s.next(4);
    s.complete();
    expect(events).toEqual(["error flush failed"]);
  });

  it("forwards a source error once, without flushing", () => {
    const s = new Subject<number>();
    const flushes: number[] = [];
    const { events } = collect(s.pipe(summing({ flushes })));
    s.next(1);
    s.error(new Error("boom"));
    expect(events).toEqual(["error boom"]);
    expect(flushes).toEqual([]);
  });

  it("ignores what a kernel emits after the output stopped", () => {
    let emitLater: ((x: number) => void) | undefined;
    const s = new Subject<number>();
    const { events } = collect(
      s.pipe(
        kernelOperator<number, number>((emit) => {
          emitLater = emit;
          return { push: (x) => emit(x), flush: () => {} };
        }),
      ),
    );
    s.next(1);
    s.complete();
    emitLater!(2);
    expect(events).toEqual([1, "complete"]);
  });

  it("unsubscribing downstream ends the source subscription and drops the kernel without flushing", () => {
    const s = new Subject<number>();
    const flushes: number[] = [];
    const { events, subscription } = collect(s.pipe(summing({ flushes })));
    s.next(1);
    expect(s.observed).toBe(true);
    subscription.unsubscribe();
    expect(s.observed).toBe(false);
    s.complete();
    expect(flushes).toEqual([]);
    expect(events).toEqual([]);
  });

  it("a downstream unsubscribing during a synchronous source stops feeding the kernel at once (no more pushes, no flush)", () => {
    // What every RxJS operator does (the inner subscriber is chained to the downstream one before
    // the source is subscribed): take(1) after the first value must not let the source run on
    // into the kernel, its side channels (onLate, onSlice, …) and its flush.
    let pushed = 0;
    let flushed = false;
    const op = kernelOperator<number, number>((emit) => ({
      push: (x) => {
        pushed++;
        emit(x);
      },
      flush: () => {
        flushed = true;
      },
    }));
    const out: number[] = [];
    from([1, 2, 3, 4, 5]).pipe(op, take(1)).subscribe((x) => out.push(x));
    expect(out).toEqual([1]);
    expect(pushed).toBe(1);
    expect(flushed).toBe(false);
    // Also for a hand-made source that does not look at `closed` itself.
    pushed = 0;
    const eager = new Observable<number>((subscriber) => {
      for (let i = 1; i <= 5; i++) subscriber.next(i);
      subscriber.complete();
    });
    eager.pipe(op, take(1)).subscribe();
    expect(pushed).toBe(1);
    expect(flushed).toBe(false);
    // map, for comparison, stops at once.
    let mapped = 0;
    from([1, 2, 3, 4, 5]).pipe(map((x) => ++mapped && x), take(1)).subscribe();
    expect(mapped).toBe(1);
  });

  it("makes one kernel per subscription", async () => {
    const kernels: Kernel<number>[] = [];
    const op = summing({ kernels });
    const source = from([1, 2, 3]);
    const [one, two] = await Promise.all([lastValueFrom(source.pipe(op, toArray())), lastValueFrom(source.pipe(op, toArray()))]);
    expect(one).toEqual([6]);
    expect(two).toEqual([6]);
    expect(kernels).toHaveLength(2);
    expect(kernels[0]).not.toBe(kernels[1]);
  });

  it("marbles: values, flush output at completion, and the source subscription", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-x-c-|", { a: 1, b: 2, x: 100, c: 4 });
      expectObservable(source.pipe(summing())).toBe("-----y---(z|)", { y: 103, z: 107 });
      expectSubscriptions(source.subscriptions).toBe("^--------!");
      const failing = cold("-a-n-|", { a: 1, n: -1 });
      expectObservable(failing.pipe(summing())).toBe("---#", undefined, new RangeError("negative"));
      expectSubscriptions(failing.subscriptions).toBe("^--!");
      const early = cold("-a-b-c-|", { a: 1, b: 2, c: 3 });
      expectObservable(early.pipe(summing()), "^--!").toBe("----");
      expectSubscriptions(early.subscriptions).toBe("^--!");
    });
  });

  it("needs a function that creates the kernel", () => {
    expect(() => kernelOperator(5 as never)).toThrow(TypeError);
  });

  it("unsubscribing downstream ends the source subscription of a real operator chain", () => {
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
  describe("kernel operators piped one after another (fused)", () => {
    /** Doubles each value; its flush emits -1 (or throws). Logs when it is made and flushed. */
    const doubling = (log: string[], name: string, failOnFlush = false) =>
      kernelOperator<number, number>((emit) => {
        log.push(`create ${name}`);
        return {
          push: (x) => emit(x * 2),
          flush: () => {
            log.push(`flush ${name}`);
            if (failOnFlush) throw new Error(`${name} flush failed`);
            emit(-1);
          },
        };
      });
    // The same stages kept apart by an operator that is not a kernel operator.
    const apart = <T>(x: T): T => x;

    it("subscribes the source once, with one observer holding every stage's kernel", () => {
      const seen: unknown[] = [];
      const source = new Observable<number>((subscriber) => {
        seen.push(subscriber);
        subscriber.next(1);
        subscriber.complete();
      });
      const log: string[] = [];
      const { events } = collect(source.pipe(doubling(log, "a"), doubling(log, "b"), doubling(log, "c")));
      // 1 through a, b and c; then each stage's flush (-1) through the stages after it.
      expect(events).toEqual([8, -4, -2, -1, "complete"]);
      expect(seen).toHaveLength(1);
      expect((seen[0] as { kernels?: readonly unknown[] }).kernels).toHaveLength(3);
    });

    it("gives what the same operators give kept apart: values, flush order, kernels made last stage first", () => {
      const cases: (readonly number[])[] = [[], [1], [1, 2, 3], [5, 100, 7]];
      for (const values of cases) {
        const fusedLog: string[] = [];
        const apartLog: string[] = [];
        const fused = collect(from(values).pipe(doubling(fusedLog, "a"), doubling(fusedLog, "b"))).events;
        const kept = collect(from(values).pipe(doubling(apartLog, "a"), map(apart), doubling(apartLog, "b"))).events;
        expect(fused).toEqual(kept);
        expect(fusedLog).toEqual(apartLog);
      }
      // a flushes first, and what it emits then reaches b before b flushes.
      const log: string[] = [];
      expect(collect(from([1]).pipe(doubling(log, "a"), doubling(log, "b"))).events).toEqual([4, -2, -1, "complete"]);
      expect(log).toEqual(["create b", "create a", "flush a", "flush b"]);
    });

    it("a throw in a later stage ends the chain with one error and leaves the source", () => {
      for (const failing of ["push", "flush"] as const) {
        const s = new Subject<number>();
        const log: string[] = [];
        const a = doubling(log, "a");
        const b = failing === "push" ? kernelOperator<number, number>(() => ({ push: (x) => { if (x === 6) throw new RangeError("b refuses 6"); }, flush: () => {} })) : doubling(log, "b", true);
        const { events, subscription } = collect(s.pipe(a, b));
        s.next(1);
        if (failing === "push") s.next(3);
        else s.complete();
        // Flushing, a's -1 reaches b (as -2) before b's flush throws.
        expect(events).toEqual(failing === "push" ? ["error b refuses 6"] : [4, -2, "error b flush failed"]);
        expect(s.observed).toBe(false);
        expect(subscription.closed).toBe(true);
        const before = events.length;
        s.next(4); // ignored
        expect(events).toHaveLength(before);
      }
    });

    it("a downstream unsubscribing mid-push stops every stage at once (no more pushes, no flush)", () => {
      const pushes: string[] = [];
      let flushed = 0;
      const stage = (name: string) =>
        kernelOperator<number, number>((emit) => ({
          push: (x) => {
            pushes.push(`${name}${x}`);
            emit(x);
            emit(x + 10); // after take(1) has unsubscribed: must not reach the next stage
          },
          flush: () => void flushed++,
        }));
      const out: number[] = [];
      from([1, 2, 3]).pipe(stage("a"), stage("b"), take(1)).subscribe((x) => out.push(x));
      expect(out).toEqual([1]);
      expect(pushes).toEqual(["a1", "b1"]);
      expect(flushed).toBe(0);
    });

    it("keeps one kernel per stage and subscription, and a shared head unfused stays cold", async () => {
      const kernels: Kernel<number>[] = [];
      const head = from([1, 2, 3]).pipe(summing({ kernels }));
      const [one, two] = await Promise.all([lastValueFrom(head.pipe(summing(), toArray())), lastValueFrom(head.pipe(toArray()))]);
      expect(one).toEqual([6]);
      expect(two).toEqual([6]);
      expect(kernels).toHaveLength(2);
    });
  });
});
