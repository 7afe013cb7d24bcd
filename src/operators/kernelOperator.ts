import { Observable, Subscription, type Observer, type OperatorFunction, type Subscriber } from "rxjs";
import type { Kernel } from "../kernels/sessions/Sink.ts";

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
 * Kernel operators piped one after another run as one: one observer feeds the first kernel, and
 * each kernel emits straight into the next one's `push` (see `KernelObservable`), with the same
 * results and the same rules as the operators kept apart. There `create` also gets the next
 * stage as `next`, with its optional `pushClosed` (under the same rules) when it has one, so an
 * engine can hand a classifier its sessions unbuilt.
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
export function kernelOperator<T, R>(create: (emit: (value: R) => void, next?: NextStage) => Kernel<T>): OperatorFunction<T, R> {
  if (typeof create !== "function") throw new TypeError("kernelOperator needs a function that creates the kernel");
  return (source) =>
    source instanceof KernelObservable
      ? new KernelObservable<R>(source.upstream, [...source.stages, create as KernelFactory])
      : new KernelObservable<R>(source, [create as KernelFactory]);
}

/** One stage's `create`, as a chain of stages holds it. */
type KernelFactory = (emit: (value: unknown) => void, next?: NextStage) => Kernel<unknown>;

/**
 * What a fused stage sees of the next one besides `emit`: its `pushClosed`, if it has one (see
 * `Kernel.pushClosed`), ignored like `emit` once the output has ended.
 *
 * @example
 * kernelOperator<Signal, Session>((emit, next) => new EventTimeEngine(options, { emit, closed: next?.pushClosed }));
 */
export interface NextStage {
  readonly pushClosed?: Kernel<unknown>["pushClosed"];
}

/**
 * The output of kernel operators applied one after another to `upstream`: one subscriber feeds
 * the first stage's kernel, and each kernel emits straight into the next one's `push`. Kernel
 * operators piped one after another (decode → sessionize → classify) are fused so: a value
 * crosses from one kernel to the next in one call, where a `Subscriber` between them cost a hop
 * and a check per value. Each subscription still gets its own kernels, made in the order
 * separate operators would make them (the last stage's first), and the state rules of
 * {@link kernelOperator} hold for the whole chain as they hold for each of its operators: a
 * throw anywhere ends it with one error; a stage emits into the next only while the output has
 * not stopped and downstream is subscribed; completion flushes the stages in order, each before
 * the next, so what one emits while flushing reaches the next before it flushes.
 */
class KernelObservable<R> extends Observable<R> {
  constructor(
    readonly upstream: Observable<unknown>,
    readonly stages: readonly KernelFactory[],
  ) {
    super((subscriber) => {
      const observer = new KernelObserver<R>(subscriber);
      const kernels: Kernel<unknown>[] = new Array(stages.length);
      // The last stage emits downstream; each other stage into the next one's kernel.
      kernels[stages.length - 1] = stages[stages.length - 1]!((value) => {
        if (!observer.stopped) subscriber.next(value as R);
      });
      for (let i = stages.length - 2; i >= 0; i--) {
        const next = kernels[i + 1]!;
        const pushClosed = next.pushClosed;
        kernels[i] = stages[i]!(
          (value) => {
            if (!observer.stopped && !observer.closed) next.push(value);
          },
          pushClosed === undefined
            ? {}
            : {
                pushClosed: (open, shopId, watermark, complete) => {
                  if (!observer.stopped && !observer.closed) pushClosed.call(next, open, shopId, watermark, complete);
                },
              },
        );
      }
      observer.kernels = kernels;
      // Added before subscribing, so a downstream that unsubscribes while a synchronous source
      // is still emitting (take(1) on an array) ends the source subscription at once.
      subscriber.add(observer);
      upstream.subscribe(observer);
    });
  }
}

/**
 * The observer {@link kernelOperator} subscribes its source with: a `Subscription` that is also
 * an `Observer` (see there for why), feeding the first of its chain's kernels.
 */
class KernelObserver<R> extends Subscription implements Observer<unknown> {
  /** True once an error or completion went downstream. */
  stopped = false;
  /** The chain's kernels, in order: values go to the first. */
  kernels!: readonly Kernel<unknown>[];
  readonly #destination: Subscriber<R>;

  constructor(destination: Subscriber<R>) {
    super();
    this.#destination = destination;
  }

  next(value: unknown): void {
    if (this.stopped || this.closed) return;
    try {
      this.kernels[0]!.push(value);
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
    const kernels = this.kernels;
    for (let i = 0; i < kernels.length; i++) {
      // A stage's flush may have ended the output (downstream unsubscribed): the rest stay unflushed.
      if (this.stopped || this.closed) return;
      try {
        kernels[i]!.flush();
      } catch (error) {
        this.error(error);
        return;
      }
    }
    if (this.stopped || this.closed) return;
    this.stopped = true;
    this.#destination.complete();
    this.unsubscribe();
  }
}
