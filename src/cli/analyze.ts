import { EXIT_USAGE, type Command } from "./common.ts";

/** `footfall analyze` — placeholder until its issue lands. */
export const command: Command = {
  summary: "analyze (not built yet)",
  help: "usage: footfall analyze (not built yet)",
  async run(_argv, io) {
    io.stderr.write("footfall analyze: not built yet\n");
    return EXIT_USAGE;
  },
};
