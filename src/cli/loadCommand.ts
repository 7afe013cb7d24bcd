import type { Command } from "./common.ts";

// Loaded on demand, so `footfall brands` does not pay for the simulator.
const COMMANDS: Readonly<Record<string, () => Promise<{ command: Command }>>> = {
  demo: () => import("./demo.ts"),
  sim: () => import("./sim.ts"),
  brands: () => import("./brands.ts"),
  shop: () => import("./shop.ts"),
  signals: () => import("./signals.ts"),
  analyze: () => import("./analyze.ts"),
  calibrate: () => import("./calibrate.ts"),
  sales: () => import("./sales.ts"),
  worker: () => import("./worker.ts"),
  fleet: () => import("./fleet.ts"),
};

/**
 * The command `footfall NAME` runs, loaded on demand; `undefined` when there is no such command.
 * The one table of commands: `main` runs them, and the docs test reads the README's command
 * lines with their flags (`Command.check`).
 *
 * @example
 * (await loadCommand("brands"))?.summary; // "list the brands the account can see"
 * await loadCommand("toString"); // undefined
 */
export async function loadCommand(name: string): Promise<Command | undefined> {
  // Own keys only: `footfall toString` is an unknown command, not Object.prototype's.
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  return load === undefined ? undefined : (await load()).command;
}
