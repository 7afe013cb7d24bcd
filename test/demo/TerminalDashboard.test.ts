import { describe, expect, it } from "vitest";
import { TerminalDashboard } from "../../src/demo/TerminalDashboard.ts";
import { fakeIo } from "../cli/fakeIo.ts";
import { frame, snap } from "./liveSnapshots.ts";

describe("dashboard rendering (made-up numbers)", () => {
  const shops = [snap("Cafe Mori Gangnam", 1), snap("Hanbit Apparel Seongsu", 2, { done: true })];

  it("redraws in place on a terminal and gives the cursor back", async () => {
    const { io, text } = fakeIo({}, { tty: true });
    const dash = new TerminalDashboard(io.stderr, shops.length);
    dash.update(frame(shops));
    dash.log("footfall demo: sales uploaded");
    await new Promise((r) => setTimeout(r, 300));
    dash.update({ ...frame(shops), clock: "15:00", fraction: 0.6 });
    dash.stop();
    expect(text.err).toContain("\x1b[?25l"); // cursor hidden while drawing
    expect(text.err).toContain("\x1b[?25h"); // and shown again
    expect(text.err).toContain("Cafe Mori Gangnam");
    expect(text.err).toContain("15:00");
    expect(text.err).toContain("footfall demo: sales uploaded");
    expect(text.out).toBe("");
  });
});
