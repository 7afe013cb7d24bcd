import type { RawSignal } from "../../contract/rawSignal.ts";
import { formatRowKey } from "../../codec/rowKey.ts";
import { millisToRts } from "../../codec/rts.ts";
import type { ShopSignals } from "./World.ts";

/**
 * A shop's signals as the service's records, in RTS order, from `fromMs` (inclusive) to `toMs`
 * (exclusive), epoch ms of the RTS; nothing for an unknown shop (`table` undefined). What
 * `World.rawSignals` returns.
 *
 * @example
 * const records = [...rawSignalsOf(world.signalTable(101), world.startMs, world.startMs + 3_600_000)];
 * records.every((r) => r.row_key.startsWith("101:")); // true
 */
export function* rawSignalsOf(table: ShopSignals | undefined, fromMs: number, toMs: number): IterableIterator<RawSignal> {
  if (table === undefined) return;
  const end = table.lowerBound(toMs);
  for (let i = table.lowerBound(fromMs); i < end; i++) {
    const ts = table.ts[i]!;
    const d = table.device[i]!;
    yield {
      row_key: formatRowKey({ shopId: table.shopId, rts: millisToRts(table.time[i]!) }),
      device_id: table.devices[d]!,
      rssi: table.rssi[i]!,
      square_mac: table.sensors[table.sensor[i]!]!,
      ts,
      local: table.deviceLocal[d] === 1,
    };
  }
}
