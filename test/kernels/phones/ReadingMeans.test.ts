import { describe, expect, it } from "vitest";
import { ReadingMeans } from "../../../src/kernels/phones/ReadingMeans.ts";

describe("ReadingMeans", () => {
  it("compares only the sensors both heard", () => {
    const one = new ReadingMeans();
    one.add(new Map([["s1", -60]]));
    expect(one.compare(new Map([["s2", -90]]), 6)).toEqual({ shared: 0, meanDiff: 0 });
    const two = new ReadingMeans();
    two.add(new Map([["s1", -60], ["s2", -70]]));
    expect(two.compare(new Map([["s2", -77]]), 6)).toBeUndefined();
  });

  it("holds a reading against the mean of those taken, not against each", () => {
    const m = new ReadingMeans();
    for (const v of [-58, -66]) m.add(new Map([["s1", v]]));
    // 8 dB from one of them, 4 dB from their mean.
    expect(m.compare(new Map([["s1", -58]]), 6)).toEqual({ shared: 1, meanDiff: 4 });
    expect(m.compare(new Map([["s1", -55]]), 6)).toBeUndefined();
  });
});
