import { vendorOfNormal } from "./oui.ts";
import type { Signal } from "./Signal.ts";
import type { InvalidRecord } from "./InvalidRecord.ts";
import { decodeSignalWith, SignalDecoderCore, type DecodeSignalOptions, type SignalDecoderOptions } from "./SignalDecoderCore.ts";

export type { DecodeSignalOptions, SignalDecoderOptions, SignalDecoderStats } from "./SignalDecoderCore.ts";
export type { InvalidReason, InvalidRecord } from "./InvalidRecord.ts";
export { defaultSignalDecoderOptions } from "./SignalDecoderCore.ts";
export { INVALID_REASONS, isInvalidRecord } from "./InvalidRecord.ts";

/**
 * Decodes one raw signal record (an element of the service's `signals` array, as parsed
 * from JSON) into a {@link Signal}, or says why it cannot: a bad record comes back as an
 * {@link InvalidRecord} with a typed reason, so a caller can route it to an `invalid`
 * side channel. It never throws for any input (only for bad `options`: TypeError/RangeError).
 *
 * `time` is `ts` converted to whole epoch ms (unit inferred from magnitude unless
 * `tsUnit` says otherwise); MACs are normalised; `randomized` is computed from the device
 * MAC while `local` keeps the service's flag as sent; `vendor` is the IEEE vendor of a
 * universal device MAC. For a stream, use a {@link SignalDecoder}, which also counts
 * rejections and data-quality findings.
 *
 * @example
 * const s = decodeSignal({
 *   row_key: "101:0000019a9ec06410", device_id: "F0:18:98:12:34:56", rssi: -61,
 *   square_mac: "b8:27:eb:00:00:01", ts: 1763600000016, local: false,
 * });
 * isInvalidRecord(s) ? s.reason : s.vendor; // "Apple, Inc."
 * (decodeSignal({ row_key: "101:x" }) as InvalidRecord).reason; // "bad-row-key"
 */
export function decodeSignal(raw: unknown, options?: DecodeSignalOptions): Signal | InvalidRecord {
  return decodeSignalWith(raw, options, vendorOfNormal);
}

/**
 * Decodes a stream of raw signal records, one at a time, with the same rule as
 * {@link decodeSignal}: valid records come back as {@link Signal}s, invalid ones go to
 * `onInvalid` and the counters, and `decode` returns `undefined` for them. It never throws
 * for any record (only the constructor does, for bad options). `stats` tells how many
 * records were decoded and rejected (by reason) and counts the data-quality findings:
 * service `local` flag ≠ MAC bit 0x02, RTS time ≠ `ts` time, randomised MACs, universal MACs
 * with no known vendor. This is the one implementation (its rules are `SignalDecoderCore`'s,
 * with the IEEE vendor list); the RxJS `decodeSignals` operator wraps it.
 *
 * @example
 * const bad: InvalidRecord[] = [];
 * const decoder = new SignalDecoder({ shopId: 101, onInvalid: (x) => bad.push(x) });
 * decoder.decode({ row_key: "101:0000019a9ec06410", device_id: "da:a1:19:00:00:01", rssi: -70,
 *   square_mac: "b8:27:eb:00:00:01", ts: 1763600000016, local: true })?.randomized; // true
 * decoder.decode({ row_key: "102:0000019a9ec06410" });                           // undefined
 * bad[0]?.reason;                                                                // "shop-mismatch"
 * decoder.stats.invalidByReason["shop-mismatch"];                                // 1
 */
export class SignalDecoder extends SignalDecoderCore {
  constructor(options?: SignalDecoderOptions) {
    super(options, vendorOfNormal);
  }
}
