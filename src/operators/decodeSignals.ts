import type { OperatorFunction } from "rxjs";
import { SignalDecoder, type SignalDecoderOptions } from "../codec/decodeSignal.ts";
import type { Signal } from "../codec/Signal.ts";
import { kernelOperator } from "./kernelOperator.ts";

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
 * counters), so bad input neither kills the stream nor disappears. One `SignalDecoder` per
 * subscription (or the one given). Options are validated when the operator is created.
 *
 * ```
 * records:  -r1-r2-bad-r3-|
 * signals:  -s1-s2-----s3-|        bad → onInvalid(InvalidRecord)
 * ```
 *
 * State rules: none beyond the decoder's counters; a throw from `onInvalid` errors the stream.
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
  return kernelOperator<unknown, Signal>((emit) => {
    const d = decoder ?? new SignalDecoder(decoderOptions);
    return {
      push: (raw) => {
        const signal = d.decode(raw);
        if (signal !== undefined) emit(signal);
      },
      flush: () => {},
    };
  });
}
