import { EXIT_USAGE, type Command } from "./common.ts";

/** `footfall brands` — placeholder until its issue lands. */
export const command: Command = {
  summary: "brands (not built yet)",
  help: "usage: footfall brands (not built yet)",
  async run(_argv, io) {
    io.stderr.write("footfall brands: not built yet\n");
    return EXIT_USAGE;
  },
};
