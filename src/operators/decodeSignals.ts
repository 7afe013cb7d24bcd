import { Observable, type OperatorFunction, type Subscriber } from "rxjs";
import { SignalDecoder, type SignalDecoderOptions } from "../codec/decodeSignal.ts";
import type { Signal } from "../codec/Signal.ts";
import { OperatorObserver } from "./OperatorObserver.ts";

/**
 * Options of {@link decodeSignals}: those of `SignalDecoder` (`shopId`, `tsUnit`, `vendors`,
 * `rtsCodec`, `tsToleranceMs`, `onInvalid` — the invalid side channel), or a ready `decoder` whose
 * `stats` the caller wants to read.
 *
 * @example
 * const options: DecodeSignalsOptions = { shopId: 101, onInvalid: (bad) => console.error(bad.reason, bad.message) };
 */
export interface DecodeSignalsOptions extends SignalDecoderOptions {
  /**
   * Use this decoder (and its counters) instead of a new one per subscription; then the other
   * options must be left out.
   * @default undefined
   */
  readonly decoder?: SignalDecoder;
}

/**
 * RxJS operator: raw service records (as parsed from JSON) → decoded {@link Signal}s. Invalid
 * records are not emitted: each goes to `onInvalid` with its typed reason (and the decoder's
 * counters), so bad input neither kills the stream nor disappears. A thin wrapper over one
 * `SignalDecoder` per subscription. Options are validated when the operator is created.
 *
 * @example
 * signals(client, { shopId: 101, since, until })
 *   .pipe(decodeSignals({ shopId: 101, onInvalid: (bad) => console.error(bad.reason) }))
 *   .subscribe((s) => console.log(s.device, s.rssi, s.randomized));
 */
export function decodeSignals(options: DecodeSignalsOptions = {}): OperatorFunction<unknown, Signal> {
  const { decoder, ...decoderOptions } = options;
  if (decoder !== undefined) {
    if (!(decoder instanceof SignalDecoder)) throw new TypeError("decoder must be a SignalDecoder");
    if (Object.values(decoderOptions).some((v) => v !== undefined)) {
      throw new TypeError("decodeSignals: pass either a decoder or decoder options, not both");
    }
  } else {
    new SignalDecoder(decoderOptions); // validates eagerly, before anyone subscribes
  }
  return (source) =>
    new Observable<Signal>((subscriber) => source.subscribe(new DecodeObserver(subscriber, decoder ?? new SignalDecoder(decoderOptions))));
}

class DecodeObserver extends OperatorObserver<unknown, Signal> {
  readonly #decoder: SignalDecoder;

  constructor(destination: Subscriber<Signal>, decoder: SignalDecoder) {
    super(destination);
    this.#decoder = decoder;
  }

  next(raw: unknown): void {
    if (this.stopped) return;
    let signal: Signal | undefined;
    try {
      signal = this.#decoder.decode(raw);
    } catch (error) {
      // Only a throwing onInvalid callback gets here.
      this.error(error);
      return;
    }
    if (signal !== undefined) this.destination.next(signal);
  }
}
