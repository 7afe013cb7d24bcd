import { Observable, Subscription, type Observer, type OperatorFunction, type Subscriber } from "rxjs";
import type { Kernel } from "../kernels/Sink.ts";

/**
 * Turns a kernel into an RxJS operator — the one way every operator in footfall is made. Each
 * subscription creates its own kernel with `create(emit)`, where `emit` sends a value
 * downstream; source values are pushed into the kernel, source completion flushes it (what it
 * emits then goes downstream before `complete`), and unsubscribing drops it without flushing.
 *
 * State rules (numbered as in rxjs's own operators):
 * 1. A throw from `push` or `flush` (a kernel bug, or a user callback such as `onLate`
 *    throwing) is sent downstream as an error, once, and the source subscription ends.
 * 2. A source error goes downstream once; the kernel is not flushed.
 * 3. After an error or completion, or once downstream unsubscribed (even in the middle of a
 *    synchronous source), later notifications are ignored and the kernel is not flushed.
 *
 * ```
 * source:    --a--b--c--|
 * kernel:      push  push  push  flush
 * output:    -----x-----y-(z|)      (whatever the kernel emits, when it emits it)
 * ```
 *
 * How it subscribes relies on RxJS 7 behaviour that is not public API: the source is
 * subscribed with an object that is both a `Subscription` and an `Observer`, which
 * `Observable.subscribe` takes as the subscriber itself (its `isSubscriber` check) instead of
 * wrapping a plain observer in a `SafeSubscriber` and a `ConsumerObserver` with their own
 * try/catch — so each value reaches the kernel in one call, most of what an operator costs per
 * record. `test/operators/kernelOperator.test.ts` pins it: if a future RxJS wraps the object
 * anyway, results stay right and that test fails.
 *
 * @example
 * const sum = () =>
 *   kernelOperator<number, number>((emit) => {
 *     let total = 0;
 *     return { push: (x) => void (total += x), flush: () => emit(total) };
 *   });
 * const out: number[] = [];
 * of(1, 2, 3).pipe(sum()).subscribe((x) => out.push(x));
 * out; // [6]
 */
export function kernelOperator<T, R>(create: (emit: (value: R) => void) => Kernel<T>): OperatorFunction<T, R> {
  if (typeof create !== "function") throw new TypeError("kernelOperator needs a function that creates the kernel");
  return (source) =>
    new Observable<R>((subscriber) => {
      const observer = new KernelObserver<T, R>(subscriber);
      observer.kernel = create((value) => {
        if (!observer.stopped) subscriber.next(value);
      });
      // Added before subscribing, so a downstream that unsubscribes while a synchronous source
      // is still emitting (take(1) on an array) ends the source subscription at once.
      subscriber.add(observer);
      source.subscribe(observer);
    });
}

/**
 * The observer {@link kernelOperator} subscribes its source with: a `Subscription` that is also
 * an `Observer` (see there for why), feeding one kernel.
 */
class KernelObserver<T, R> extends Subscription implements Observer<T> {
  /** True once an error or completion went downstream. */
  stopped = false;
  kernel!: Kernel<T>;
  readonly #destination: Subscriber<R>;

  constructor(destination: Subscriber<R>) {
    super();
    this.#destination = destination;
  }

  next(value: T): void {
    if (this.stopped || this.closed) return;
    try {
      this.kernel.push(value);
    } catch (error) {
      this.error(error);
    }
  }

  error(error: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.#destination.error(error);
    this.unsubscribe();
  }

  complete(): void {
    if (this.stopped || this.closed) return;
    try {
      this.kernel.flush();
    } catch (error) {
      this.error(error);
      return;
    }
    this.stopped = true;
    this.#destination.complete();
    this.unsubscribe();
  }
}
