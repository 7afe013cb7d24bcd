#!/usr/bin/env node
// Placeholder entry until the CLI lands; replaced by the subcommand dispatcher.
console.error("footfall: CLI not built yet");
process.exit(2);
