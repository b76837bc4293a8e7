#!/usr/bin/env node
// The kit ships TypeScript sources; tsx compiles them on the fly so there is no build step.
import { register } from "tsx/esm/api";

// The SQLite binding (better-sqlite3 13) needs Node 22 or later and crashes on older ones:
// say so in one line instead.
const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  console.error(
    `dealkit needs Node 22 or 24 LTS; this is Node ${process.version} (Node 20 reached end of life in April 2026).`,
  );
  process.exit(2);
}

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
