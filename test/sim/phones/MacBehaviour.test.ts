import { describe, expect, it } from "vitest";
import { createWorld } from "../../../src/sim/createWorld.ts";
import { realisticMacBehaviour, resolveMacBehaviour } from "../../../src/sim/phones/MacBehaviour.ts";

describe("resolveMacBehaviour", () => {
  it("is off unless rotation or macs ask for the burst model", () => {
    expect(resolveMacBehaviour(undefined, undefined)).toBeUndefined();
    expect(resolveMacBehaviour("off", undefined)).toBeUndefined();
    expect(resolveMacBehaviour("realistic", undefined)).toEqual(realisticMacBehaviour);
    expect(resolveMacBehaviour(undefined, { burstsPerMac: 3 })).toEqual({ ...realisticMacBehaviour, burstsPerMac: { screenOn: 3, screenOff: 3 } });
    expect(resolveMacBehaviour(undefined, { burstsPerMac: { screenOff: 2 } })!.burstsPerMac).toEqual({ ...realisticMacBehaviour.burstsPerMac, screenOff: 2 });
  });

  it("a number is the share of randomizing phones that rotate, on the realistic model", () => {
    expect(resolveMacBehaviour(0.3, undefined)).toEqual({ ...realisticMacBehaviour, rotatingShare: 0.3 });
    expect(resolveMacBehaviour(0, undefined)!.rotatingShare).toBe(0);
    expect(resolveMacBehaviour(0.6, { rotatingShare: 0.6 })!.rotatingShare).toBe(0.6);
  });

  it("burstGapS takes one median, one range or per-state ranges", () => {
    expect(resolveMacBehaviour("realistic", { burstGapS: 120 })!.burstGapS).toEqual({ screenOn: [120, 120], screenOff: [120, 120], associated: [120, 120] });
    expect(resolveMacBehaviour("realistic", { burstGapS: [5, 20] })!.burstGapS).toEqual({ screenOn: [5, 20], screenOff: [5, 20], associated: [5, 20] });
    expect(resolveMacBehaviour("realistic", { burstGapS: { screenOff: [60, 90] } })!.burstGapS).toEqual({ ...realisticMacBehaviour.burstGapS, screenOff: [60, 90] });
  });

  it.each([
    ["rotation that is not off / realistic / a number", () => resolveMacBehaviour("always" as never, undefined), TypeError],
    ["a rotation share above 1", () => resolveMacBehaviour(1.5, undefined), RangeError],
    ["macs with rotation off (it would be ignored)", () => resolveMacBehaviour("off", { burstsPerMac: 2 }), RangeError],
    ["a rotation share that disagrees with macs.rotatingShare", () => resolveMacBehaviour(0.3, { rotatingShare: 0.6 }), RangeError],
    ["macs that is not an object", () => resolveMacBehaviour("realistic", 3 as never), TypeError],
    ["a universal share below 0", () => resolveMacBehaviour("realistic", { universalShare: -0.1 }), RangeError],
    ["fewer than one burst per MAC", () => resolveMacBehaviour("realistic", { burstsPerMac: 0.5 }), RangeError],
    ["frames per burst that are not integers", () => resolveMacBehaviour("realistic", { framesPerBurst: [2.5, 4] }), RangeError],
    ["a descending range", () => resolveMacBehaviour("realistic", { framesPerBurst: [6, 3] }), RangeError],
    ["a burst gap under a second", () => resolveMacBehaviour("realistic", { burstGapS: 0.2 }), RangeError],
    ["an unknown screen state for bursts per MAC", () => resolveMacBehaviour("realistic", { burstsPerMac: { dim: 2 } as never }), RangeError],
    ["an unknown phone state", () => resolveMacBehaviour("realistic", { burstGapS: { sleeping: [5, 9] } as never }), RangeError],
    ["a non-finite screen period", () => resolveMacBehaviour("realistic", { screenPeriodS: Number.NaN }), TypeError],
  ])("rejects %s", (_name, call, type) => {
    expect(call).toThrow(type);
  });

  it("createWorld validates the same options eagerly", () => {
    expect(() => createWorld({ shops: 1, rotation: 2 })).toThrow(RangeError);
    expect(() => createWorld({ shops: 1, rotation: "off", macs: { rotatingShare: 1 } })).toThrow(/no effect/);
  });
});
