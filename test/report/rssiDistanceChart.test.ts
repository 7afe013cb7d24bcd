import { describe, expect, it } from "vitest";
import { rssiDistanceChart } from "../../src/report/rssiDistanceChart.ts";
import { expectStandaloneSvg, markElements, texts } from "./svgAssertions.ts";

describe("rssiDistanceChart", () => {
  const samples = [
    { distanceM: 0.5, rssi: -40 },
    { distanceM: 1, rssi: -46 },
    { distanceM: 3, rssi: -57 },
    { distanceM: 10, rssi: -72 },
  ];

  it("draws a dot per sample and the fitted curve with its parameters in the legend", () => {
    const root = expectStandaloneSvg(rssiDistanceChart(samples, { rssiAt1m: -45.25, exponent: 2.7 }));
    expect(markElements(root, "dot", "circle")).toHaveLength(samples.length);
    expect(markElements(root, "line", "path")).toHaveLength(1);
    expect(texts(root)).toEqual(expect.arrayContaining(["survey samples (4)", "fit: -45.3 dBm at 1 m, exponent n = 2.70", "↑ RSSI (dBm)", "distance from sensor (m) →"]));
  });

  it("draws the zone bounds that fall inside the data and no curve without a fit", () => {
    const root = expectStandaloneSvg(rssiDistanceChart(samples, undefined, { zones: { immediateM: 1, nearM: 40 } }));
    expect(markElements(root, "line", "path")).toHaveLength(0);
    expect(texts(root)).toContain("immediate | near");
    expect(texts(root)).not.toContain("near | far");
  });

  it("rejects a distance that is not positive", () => {
    expect(() => rssiDistanceChart([{ distanceM: 0, rssi: -40 }])).toThrow(RangeError);
  });
});
