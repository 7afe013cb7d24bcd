/**
 * A decoded, validated signal: what the analytics operators consume.
 * A plain object of primitives with one fixed shape (so the hot path stays monomorphic).
 *
 * @example
 * const s: Signal = {
 *   shopId: 101, rts: "0000019a9ec06410", time: 1763600000016, device: "f0:18:98:12:34:56",
 *   rssi: -61, sensor: "b8:27:eb:00:00:01", local: false, randomized: false, vendor: "Apple, Inc.",
 * };
 */
export interface Signal {
  /** SHOP ID from the row_key (a non-negative safe integer). */
  readonly shopId: number;
  /** RTS from the row_key, as 16 lowercase hex digits whatever the service's spelling. */
  readonly rts: string;
  /** Event time in whole epoch milliseconds: `ts` converted from its unit (see `inferEpochUnit`), truncated. */
  readonly time: number;
  /** Device MAC, normalised to lowercase colon form. */
  readonly device: string;
  /** Received signal strength, dBm (−127…0). */
  readonly rssi: number;
  /** Sensor (`square_mac`) MAC, normalised. */
  readonly sensor: string;
  /** The service's `local` flag, kept as sent. */
  readonly local: boolean;
  /** Computed from the MAC: locally administered (bit 0x02) and unicast (bit 0x01 clear). */
  readonly randomized: boolean;
  /** IEEE OUI vendor of a universal MAC; `undefined` for local MACs or unknown prefixes. */
  readonly vendor: string | undefined;
  /**
   * Data-quality findings of the decoder, a bit set (`SIGNAL_LOCAL_FLAG_MISMATCH`,
   * `SIGNAL_TS_RTS_MISMATCH`); 0 or absent when there are none. Computed once, where the
   * record is decoded, so the data-quality accumulator reads them instead of checking again.
   */
  readonly flags?: number;
}

/**
 * `Signal.flags` bit: the service's `local` flag disagrees with the MAC's locally administered bit.
 *
 * @example
 * const signal = decodeSignal({ row_key: "101:0000019a9ec06410", device_id: "f0:18:98:12:34:56", rssi: -61, square_mac: "b8:27:eb:00:00:01", ts: 1763600000016, local: true }) as Signal;
 * ((signal.flags ?? 0) & SIGNAL_LOCAL_FLAG_MISMATCH) !== 0; // true: a universal MAC sent as local
 */
export const SIGNAL_LOCAL_FLAG_MISMATCH = 1;

/**
 * `Signal.flags` bit: the time in the RTS and `ts` differ by more than the decoder's `tsToleranceMs`.
 *
 * @example
 * const signal = decodeSignal({ row_key: "101:0000019a9ec06410", device_id: "f0:18:98:12:34:56", rssi: -61, square_mac: "b8:27:eb:00:00:01", ts: 1763600009000, local: false }) as Signal;
 * ((signal.flags ?? 0) & SIGNAL_TS_RTS_MISMATCH) !== 0; // true: ts is 9 s after the RTS time
 */
export const SIGNAL_TS_RTS_MISMATCH = 2;
