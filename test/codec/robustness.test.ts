/**
 * No codec function throws an untyped error for any input: each either returns, throws a
 * DecodeError (bad data), or throws its own TypeError/RangeError (bad argument) whose
 * message names the function — never an engine error such as "Cannot read properties".
 */
import fc from "fast-check";
import { describe, it } from "vitest";
import { SignalDecoder, decodeSignal, isInvalidRecord } from "../../src/codec/decodeSignal.ts";
import { inferEpochUnit, isEpochUnit, toEpochMillis } from "../../src/codec/inferEpochUnit.ts";
import { isLocallyAdministered, isMulticast, isRandomized, normalizeMac } from "../../src/codec/mac.ts";
import { vendorOf } from "../../src/codec/oui.ts";
import { formatRowKey, parseRowKey } from "../../src/codec/rowKey.ts";
import {
  compareRts,
  inferRtsCodec,
  isRts,
  microsRts,
  millisToRts,
  rtsCodecForUnit,
  rtsToMillis,
  secondsRts,
  stepRts,
} from "../../src/codec/rts.ts";
import { isDecodeError } from "../../src/errors/DecodeError.ts";

type AnyFn = (a: unknown, b: unknown) => unknown;
const fns: Record<string, AnyFn> = {
  decodeSignal: (a, b) => decodeSignal(a, b as never),
  decodeSignalDefault: (a) => decodeSignal(a),
  SignalDecoder: (a, b) => new SignalDecoder(b as never).decode(a),
  isInvalidRecord: (a) => isInvalidRecord(a),
  inferEpochUnit: (a) => inferEpochUnit(a as never),
  toEpochMillis: (a, b) => toEpochMillis(a as never, b as never),
  isEpochUnit: (a) => isEpochUnit(a),
  normalizeMac: (a) => normalizeMac(a as never),
  isLocallyAdministered: (a) => isLocallyAdministered(a as never),
  isMulticast: (a) => isMulticast(a as never),
  isRandomized: (a) => isRandomized(a as never),
  vendorOf: (a) => vendorOf(a as never),
  parseRowKey: (a) => parseRowKey(a as never),
  formatRowKey: (a) => formatRowKey(a as never),
  compareRts: (a, b) => compareRts(a as never, b as never),
  inferRtsCodec: (a, b) => inferRtsCodec(a as never, b as never),
  isRts: (a) => isRts(a),
  millisToRts: (a) => millisToRts(a as never),
  microsEncode: (a) => microsRts.encode(a as never),
  rtsCodecForUnit: (a) => rtsCodecForUnit(a as never),
  rtsToMillis: (a) => rtsToMillis(a as never),
  secondsDecode: (a) => secondsRts.decode(a as never),
  stepRts: (a, b) => stepRts(a as never, b as never),
};

const OUR_MESSAGE = /^(RTS:|stepRts:|formatRowKey:|decodeSignal:|SignalDecoder:|unknown (epoch|RTS) unit)/;

function typed(error: unknown): boolean {
  if (isDecodeError(error)) return true;
  return (error instanceof TypeError || error instanceof RangeError) && OUR_MESSAGE.test(error.message);
}

const input = fc.oneof(fc.jsonValue(), fc.string(), fc.anything({ withNullPrototype: true, withBigInt: true }));

describe("no untyped throws from any codec function", () => {
  for (const [name, fn] of Object.entries(fns)) {
    it(name, () => {
      fc.assert(
        fc.property(input, input, (a, b) => {
          try {
            fn(a, b);
            return true;
          } catch (error) {
            return typed(error);
          }
        }),
        { numRuns: 300 },
      );
    });
  }
});
