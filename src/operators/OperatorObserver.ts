import { Subscription, type Observer, type Subscriber } from "rxjs";

/**
 * Base of the observers the operators subscribe to their source with: a `Subscription` that is
 * also an `Observer`. RxJS takes such an object as the subscriber itself, where it wraps a plain
 * observer object in two more layers (a subscriber and a consumer observer with its own
 * try/catch) — so each value reaches the kernel in one call, which is most of what an operator
 * costs per record.
 *
 * A subclass implements `next` (feeding its kernel, sending a throw to {@link error}) and
 * optionally `finish` (the kernel's flush). `error` and `complete` go downstream once; `complete`
 * runs `finish` first and sends a throw from it downstream as an error. The operator's Observable
 * returns the observer as its teardown, so unsubscribing downstream ends the source subscription.
 *
 * @example
 * class Counting extends OperatorObserver<unknown, number> {
 *   #n = 0;
 *   next(): void { this.#n++; }
 *   protected override finish(): void { this.destination.next(this.#n); }
 * }
 * const count = (): OperatorFunction<unknown, number> => (source) =>
 *   new Observable<number>((subscriber) => source.subscribe(new Counting(subscriber)));
 */
export abstract class OperatorObserver<T, R> extends Subscription implements Observer<T> {
  /** True once an error or completion went downstream: later notifications are ignored. */
  protected stopped = false;
  /** Where results go. */
  protected readonly destination: Subscriber<R>;

  constructor(destination: Subscriber<R>) {
    super();
    this.destination = destination;
  }

  /** Feeds one value to the kernel. */
  abstract next(value: T): void;

  /** Sends `error` downstream (once) and ends the source subscription. */
  error(error: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.destination.error(error);
    this.unsubscribe();
  }

  /** Runs {@link finish}, then completes downstream (once); a throw from `finish` goes downstream as an error. */
  complete(): void {
    if (this.stopped) return;
    try {
      this.finish();
    } catch (error) {
      this.error(error);
      return;
    }
    this.stopped = true;
    this.destination.complete();
    this.unsubscribe();
  }

  /** Called once when the source completes, before downstream completes: flush the kernel here. */
  protected finish(): void {}
}
