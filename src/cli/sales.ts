import { EXIT_USAGE, type Command } from "./common.ts";

/** `footfall sales` — placeholder until its issue lands. */
export const command: Command = {
  summary: "sales (not built yet)",
  help: "usage: footfall sales (not built yet)",
  async run(_argv, io) {
    io.stderr.write("footfall sales: not built yet\n");
    return EXIT_USAGE;
  },
};
