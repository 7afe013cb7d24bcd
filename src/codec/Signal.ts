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
  /** RTS from the row_key (16 lowercase hex digits). */
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
}
