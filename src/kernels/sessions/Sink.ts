import type { OpenSession } from "./OpenSession.ts";

/**
 * Where a kernel delivers its results: the one output convention of every kernel in
 * `src/kernels` (and so of every operator, which forwards `emit` downstream). `emit` gets each
 * result as it becomes final; `late` gets each input that came too late to change a result that
 * was already emitted, with the kernel's watermark (epoch ms of event time) at that moment.
 *
 * A sink is created once per kernel, so the hot path calls plain methods and allocates no
 * closures.
 *
 * @example
 * const sessions: Session[] = [];
 * const sink: Sink<Session, Signal> = {
 *   emit: (s) => sessions.push(s),
 *   late: (signal, watermark) => console.warn("late by", watermark - signal.time, "ms"),
 * };
 */
export interface Sink<R, L = never> {
  /** One result, final. */
  emit(value: R): void;
  /**
   * An input behind the kernel's watermark (epoch ms): it is counted and not used. Not called
   * when omitted.
   */
  late?(value: L, watermark: number): void;
}

/**
 * A kernel: a synchronous state machine fed one value at a time, delivering through the
 * {@link Sink} it was created with. `flush` ends the input (emitting everything still held);
 * the kernel may be fed again afterwards, as if a new input began with the same watermarks.
 * `kernelOperator` turns any kernel into an RxJS operator; `analyze()` chains the same kernels
 * directly, which is why batch and stream agree.
 *
 * @example
 * const counter: Kernel<number> = { push: (x) => void (total += x), flush: () => sink.emit(total) };
 */
export interface Kernel<T> {
  /** Feeds one value; may emit synchronously. */
  push(value: T): void;
  /** End of input: emits what is still held. */
  flush(): void;
  /**
   * Internal, optional: feeds a session an `EventTimeEngine` closed, unbuilt (`EngineSink.closed`),
   * as `push` of the session it is. A kernel that holds sessions implements it (the classifier),
   * so a fused engine before it hands sessions over without building them.
   */
  pushClosed?(open: OpenSession, shopId: number, watermark: number, complete: number): void;
}

/**
 * Checks that `sink` has an `emit` method (and a `late` method if any), with the kernel's name
 * in the TypeError. Kernels call it in their constructor.
 *
 * @example
 * checkSink("VisitCounter", { emit: () => {} }); // ok
 * checkSink("VisitCounter", {} as Sink<number>); // TypeError: VisitCounter needs a sink with an emit() method
 */
export function checkSink<R, L>(kernel: string, sink: Sink<R, L>): Sink<R, L> {
  if (typeof sink?.emit !== "function") throw new TypeError(`${kernel} needs a sink with an emit() method`);
  if (sink.late !== undefined && typeof sink.late !== "function") throw new TypeError(`${kernel}: sink.late must be a function`);
  return sink;
}
