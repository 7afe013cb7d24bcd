/**
 * Lower edges of the RSSI bands the calibration's features count devices in, dBm, strongest
 * first: ≥ −60, −70…−60, −80…−70, −90…−80, and below −90. A band, not one threshold, so a shop's
 * model can weigh how near devices were heard (the lab's own phones at ≥ −70, a corridor's at
 * −80…−90) without choosing a threshold that a day's crowd would move. 10 dB is about two
 * readings' noise: narrower bands would split one device's readings between them.
 *
 * @example
 * RSSI_BAND_EDGES.length; // 4 (five bands)
 */
export const RSSI_BAND_EDGES: readonly number[] = Object.freeze([-60, -70, -80, -90]);

/**
 * The band of a device's strongest smoothed reading (index into the band features: 0 = ≥ −60 dBm,
 * 4 = below −90 dBm).
 *
 * @example
 * rssiBand(-55); // 0
 * rssiBand(-75); // 2
 * rssiBand(-95); // 4
 */
export function rssiBand(rssi: number): number {
  for (let b = 0; b < RSSI_BAND_EDGES.length; b++) if (rssi >= RSSI_BAND_EDGES[b]!) return b;
  return RSSI_BAND_EDGES.length;
}

const BANDS = ["ge-60", "-70..-60", "-80..-70", "-90..-80", "lt-90"] as const;

/**
 * The features a shop's people model maps to people inside, per interval, in this order (what
 * each `OccupancyInterval.features` holds):
 * - `randomized ge-60` … `randomized lt-90`: randomized-MAC devices heard in the interval (a
 *   visitor's or passer-by's session overlapping it), by the band of the session's strongest
 *   smoothed reading — each rotated MAC counts, so these measure phones' MACs, not persons;
 * - `universal ge-60` … `universal lt-90`: universal-MAC devices present (visitors' and
 *   passers-by's sessions, time-weighted over the interval: a device present the whole interval
 *   counts 1), by band — laptops that come and go with their owners, phones on the shop's Wi-Fi;
 * - `stationary`: devices footfall found stationary (present all day, or probing on a timer),
 *   time-weighted — fixed equipment, and PCs a room's users switch on.
 * Staff count in none of them. What each feature is worth in people is the shop's to learn from
 * counted people (`fitPeopleModel`): none is a person by itself.
 *
 * @example
 * CALIBRATION_FEATURES.length; // 11
 * CALIBRATION_FEATURES[10]; // "stationary"
 */
export const CALIBRATION_FEATURES: readonly string[] = Object.freeze([...BANDS.map((b) => `randomized ${b}`), ...BANDS.map((b) => `universal ${b}`), "stationary"]);

/**
 * Where each kind of feature starts in {@link CALIBRATION_FEATURES}.
 *
 * @example
 * FEATURE_OFFSETS.universal; // 5
 */
export const FEATURE_OFFSETS = Object.freeze({ randomized: 0, universal: BANDS.length, stationary: 2 * BANDS.length });
