import { EXIT_USAGE, type Command } from "./common.ts";

/** `footfall signals` — placeholder until its issue lands. */
export const command: Command = {
  summary: "signals (not built yet)",
  help: "usage: footfall signals (not built yet)",
  async run(_argv, io) {
    io.stderr.write("footfall signals: not built yet\n");
    return EXIT_USAGE;
  },
};
