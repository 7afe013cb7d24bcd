import type { InvalidReason } from "../../codec/decodeSignal.ts";

/**
 * The ways the simulator breaks a record it serves (fault `malformedRate`), each a rejection the
 * decoder must report — a field `null`, absent, of another JSON type or out of its range, as a
 * service with a flaky sensor or a sloppy serialiser sends them — with the reason it is
 * rejected for.
 *
 * @example
 * BROKEN_KINDS[0]!.reason; // "missing-field"
 */
export const BROKEN_KINDS: readonly { readonly name: string; readonly reason: InvalidReason }[] = Object.freeze([
  { name: "rssi null", reason: "missing-field" },
  { name: "local absent", reason: "missing-field" },
  { name: "rssi quoted", reason: "wrong-type" },
  { name: "local as 0/1", reason: "wrong-type" },
  { name: "device_id not a MAC", reason: "bad-mac" },
  { name: "rssi positive", reason: "rssi-out-of-range" },
  { name: "ts 0 (a clock never set)", reason: "bad-ts" },
  // A letter past f: not an RTS in any spelling (a digit dropped from an unpadded RTS would still be one).
  { name: "row_key RTS not hex", reason: "bad-row-key" },
]);

/**
 * Which way record `index` of shop `shopId` is broken (an index into {@link BROKEN_KINDS}), or
 * −1 for a record served whole: a hash of `(seed, shopId, index)`, so a record is broken alike on
 * every request (the source assumes a service answers a request the same way twice) and a share
 * `rate` of records is, at random.
 *
 * @example
 * brokenKind(7, 101, 12, 0);   // -1: nothing is broken at rate 0
 * brokenKind(7, 101, 12, 1) >= 0; // true: everything is at rate 1
 */
export function brokenKind(seed: number, shopId: number, index: number, rate: number): number {
  if (!(rate > 0)) return -1;
  let h = Math.imul(seed ^ Math.imul(shopId, 0x9e3779b1), 0x85ebca6b) ^ Math.imul(index, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  h = (h ^ (h >>> 16)) >>> 0;
  if (h / 2 ** 32 >= rate) return -1;
  return (Math.imul(h, 0x27d4eb2d) >>> 0) % BROKEN_KINDS.length;
}

/**
 * Record `json` (one signal record as the simulator writes it: the six service fields in order,
 * no spaces) broken the way `kind` says ({@link BROKEN_KINDS}). A textual edit, so `ts` keeps its
 * exact digits (nanoseconds exceed a double's) wherever it is not the field broken.
 *
 * @example
 * const ok = '{"row_key":"101:0000019a9ec06410","device_id":"f0:18:98:12:34:56","rssi":-61,' +
 *   '"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false}';
 * JSON.parse(breakRecord(ok, 0)).rssi;   // null
 * JSON.parse(breakRecord(ok, 3)).local;  // 0
 */
export function breakRecord(json: string, kind: number): string {
  switch (kind) {
    case 0:
      return json.replace(/"rssi":-?\d+/, '"rssi":null');
    case 1:
      return json.replace(/,"local":(?:true|false)/, "");
    case 2:
      return json.replace(/"rssi":(-?\d+)/, '"rssi":"$1"');
    case 3:
      return json.replace(/"local":(true|false)/, (_, b: string) => `"local":${b === "true" ? 1 : 0}`);
    case 4:
      return json.replace(/"device_id":"[^"]*"/, '"device_id":"unknown"');
    case 5:
      return json.replace(/"rssi":-?\d+/, '"rssi":5');
    case 6:
      return json.replace(/"ts":"?\d+"?/, '"ts":0');
    case 7:
      return json.replace(/("row_key":"\d+:[0-9a-fA-F]*)[0-9a-fA-F]"/, '$1g"');
    default:
      throw new RangeError(`no broken-record kind ${kind}`);
  }
}
