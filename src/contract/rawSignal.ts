/**
 * One Wi-Fi signal record exactly as the service sends it (element of `signals`).
 *
 * @example
 * const raw: RawSignal = {
 *   row_key: "101:0000019a9ec06410", device_id: "f0:18:98:12:34:56", rssi: -61,
 *   square_mac: "b8:27:eb:00:00:01", ts: 1763600000016, local: false,
 * };
 */
export interface RawSignal {
  /** `<shop_id>:<rts>`. */
  readonly row_key: string;
  /** MAC address of the emitting device. */
  readonly device_id: string;
  /** Received signal strength in dBm; negative, closer to 0 is stronger. */
  readonly rssi: number;
  /** MAC address of the sensor that heard the device. */
  readonly square_mac: string;
  /** Collection time; the unit is not published (inferred by magnitude, see `inferEpochUnit`). */
  readonly ts: number;
  /** The service's "locally administered MAC" flag. */
  readonly local: boolean;
}

/**
 * Body of `GET {signal_url}/api/v1/shops/{shop_id}/wifi_signals`.
 *
 * @example
 * const page: SignalsResponse = { signals: [], since: "0000019a8f3c2e10" };
 */
export interface SignalsResponse {
  /**
   * At most `limit` records, as the service sent them: each should be a {@link RawSignal}, and
   * one that is not (a field missing or of another type) is the decoder's to reject
   * (`decodeSignal`; the source reports it to `onInvalid`), not a reason to drop the page.
   */
  readonly signals: readonly unknown[];
  /** Echo of the request's `since` (the sample shows it equal). */
  readonly since: string;
}
