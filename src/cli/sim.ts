import { EXIT_USAGE, type Command } from "./common.ts";

/** `footfall sim` — placeholder until its issue lands. */
export const command: Command = {
  summary: "sim (not built yet)",
  help: "usage: footfall sim (not built yet)",
  async run(_argv, io) {
    io.stderr.write("footfall sim: not built yet\n");
    return EXIT_USAGE;
  },
};
