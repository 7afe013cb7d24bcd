import type { RawSignal } from "../contract/rawSignal.ts";
import { tsNumber } from "../codec/InvalidRecord.ts";

/**
 * The identity of a signal record: all six fields, as one string. Several records can
 * share an RTS (and so a `row_key`), so the source tells records apart by the whole record;
 * two records equal in every field are told apart by how often they occur (a multiset).
 *
 * The string is stored in checkpoints, so its format is part of the checkpoint format
 * (a JSON array `[row_key, device_id, rssi, square_mac, ts, local]`).
 *
 * @example
 * recordIdentity({ row_key: "1:0000000000000001", device_id: "aa:bb:cc:dd:ee:ff", rssi: -60,
 *   square_mac: "b8:27:eb:00:00:01", ts: 1, local: false });
 * // '["1:0000000000000001","aa:bb:cc:dd:ee:ff",-60,"b8:27:eb:00:00:01",1,false]'
 */
export function recordIdentity(record: RawSignal): string {
  // JSON keeps the fields unambiguous whatever characters they contain; only the records of
  // a page's boundary tie groups come here (a few per page), so its cost stays small. A `ts` the
  // service quoted is the number the source delivers it as, so a record has one identity
  // whether it comes from a page or from a delivered copy (a checkpoint saved mid-page).
  const given: unknown = record.ts;
  const ts = typeof given === "string" && tsNumber(given) >= 0 ? tsNumber(given) : given;
  return JSON.stringify([record.row_key, record.device_id, record.rssi, record.square_mac, ts, record.local]);
}
