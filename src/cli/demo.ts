import { EXIT_USAGE, type Command } from "./common.ts";

/** `footfall demo` — placeholder until its issue lands. */
export const command: Command = {
  summary: "demo (not built yet)",
  help: "usage: footfall demo (not built yet)",
  async run(_argv, io) {
    io.stderr.write("footfall demo: not built yet\n");
    return EXIT_USAGE;
  },
};
