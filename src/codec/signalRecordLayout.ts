/**
 * Where the WebAssembly record reader (`SignalRecordReader`, built from `signalRecordWat`) keeps
 * what it reads and writes in its memory, in bytes: the one definition both sides use. Internal to
 * the codec.
 *
 * @example
 * RECORD_LAYOUT.input % 16; // 0: the input starts aligned
 */
export const RECORD_LAYOUT = {
  /** The outputs of the last record read (below, offsets from here). */
  out: 64,
  /** The further fields' keys learned from the last record: 32 bytes a field (16 of literal, its length). */
  learned: 256,
  /** Fields whose keys are learned, at most (keys after these are checked in full). */
  maxLearnedFields: 32,
  /** The input's first byte (a line starts anywhere from here). */
  input: 2048,
  /**
   * Bytes past the input's end that the reader may load but never uses (it loads 4, 8 or 16 bytes
   * at a time and checks each one's place against the limit before it counts).
   */
  padding: 32,
} as const;

/**
 * Offsets of the outputs from {@link RECORD_LAYOUT}.out: doubles for the numbers (as JSON.parse
 * gives them), 32-bit halves for each MAC's 48 bits, and where the RTS's digits start.
 *
 * @example
 * RECORD_OUT.ts % 8; // 0: the doubles are aligned
 */
export const RECORD_OUT = {
  shopId: 0,
  rtsValue: 8,
  rssi: 16,
  ts: 24,
  deviceHigh: 32,
  deviceLow: 36,
  sensorHigh: 40,
  sensorLow: 44,
  local: 48,
  rtsAt: 52,
} as const;
