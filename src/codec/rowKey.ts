import { DecodeError } from "../errors/DecodeError.ts";
import { isRts } from "./rts.ts";

/**
 * The two parts of a signal's `row_key`.
 *
 * @example
 * const key: RowKey = { shopId: 101, rts: "0000019a8f3c2e10" };
 */
export interface RowKey {
  readonly shopId: number;
  readonly rts: string;
}

/**
 * Splits a `row_key` (`<shop_id>:<rts>`) on its last colon. The shop id must be decimal
 * digits (a safe integer) and the RTS 16 lowercase hex digits; anything else throws a
 * {@link DecodeError}.
 *
 * @example
 * parseRowKey("101:0000019a8f3c2e10"); // { shopId: 101, rts: "0000019a8f3c2e10" }
 */
export function parseRowKey(rowKey: string): RowKey {
  if (typeof rowKey !== "string") throw new DecodeError("row_key", rowKey, "expected a string");
  const colon = rowKey.lastIndexOf(":");
  if (colon <= 0) throw new DecodeError("row_key", rowKey, "expected <shop_id>:<rts>");
  const shopText = rowKey.slice(0, colon);
  const rts = rowKey.slice(colon + 1);
  if (!/^[0-9]+$/.test(shopText)) throw new DecodeError("row_key", rowKey, "shop id is not decimal digits");
  const shopId = Number(shopText);
  if (!Number.isSafeInteger(shopId)) throw new DecodeError("row_key", rowKey, "shop id is too large");
  if (!isRts(rts)) throw new DecodeError("row_key", rowKey, "RTS is not 16 lowercase hex digits");
  return { shopId, rts };
}

/**
 * Builds a `row_key` from its parts: the inverse of {@link parseRowKey}.
 *
 * @example
 * formatRowKey({ shopId: 101, rts: "0000019a8f3c2e10" }); // "101:0000019a8f3c2e10"
 */
export function formatRowKey(key: RowKey): string {
  return `${key.shopId}:${key.rts}`;
}
