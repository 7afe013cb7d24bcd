import { EXIT_USAGE, type Command } from "./common.ts";

/** `footfall shop` — placeholder until its issue lands. */
export const command: Command = {
  summary: "shop (not built yet)",
  help: "usage: footfall shop (not built yet)",
  async run(_argv, io) {
    io.stderr.write("footfall shop: not built yet\n");
    return EXIT_USAGE;
  },
};
