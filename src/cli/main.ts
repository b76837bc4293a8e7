import { readdir } from "node:fs/promises";
import { UsageError } from "./args.ts";
import { MissingPeerError } from "./optional-peer.ts";

/**
 * The dealkit CLI: `dealkit <command> [options]`. Each command is one module in
 * ./commands/ exporting `summary`, `usage` and `run(args) => exit code`; the CLI only finds
 * and calls it, the work lives in the library.
 */
export interface Command {
  summary: string;
  usage: string;
  run(args: string[]): Promise<number>;
}

const COMMANDS_DIR = new URL("./commands/", import.meta.url);
/** ".ts" in a checkout (tsx), ".js" in the built package: commands are modules like this one. */
const EXT = import.meta.url.slice(import.meta.url.lastIndexOf("."));

async function commandNames(): Promise<string[]> {
  const files = await readdir(COMMANDS_DIR);
  return (
    files
      // Beside the commands sit their tests (in a checkout): not commands.
      .filter((f) => f.endsWith(EXT) && !f.endsWith(`.d${EXT}`) && !f.endsWith(`.test${EXT}`))
      .map((f) => f.slice(0, -EXT.length))
      .sort()
  );
}

async function loadCommand(name: string): Promise<Command | undefined> {
  if (!(await commandNames()).includes(name)) return undefined;
  return (await import(new URL(`${name}${EXT}`, COMMANDS_DIR).href)) as Command;
}

async function help(): Promise<string> {
  const lines = ["usage: dealkit <command> [options]", "", "commands:"];
  for (const name of await commandNames()) {
    const cmd = await loadCommand(name);
    lines.push(`  ${name.padEnd(12)} ${cmd?.summary ?? ""}`);
  }
  lines.push("", "dealkit <command> --help shows the options of one command.");
  return lines.join("\n");
}

/** Runs the CLI; returns the process exit code (0 ok, 1 failed check, 2 usage or unreachable input). */
export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(await help());
    return name ? 0 : 2;
  }
  const cmd = await loadCommand(name);
  if (!cmd) {
    console.error(`dealkit: unknown command ${JSON.stringify(name)}\n\n${await help()}`);
    return 2;
  }
  if (args.includes("--help") || args.includes("-h")) {
    console.log(cmd.usage);
    return 0;
  }
  try {
    return await cmd.run(args);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`dealkit ${name}: ${err.message}\n\n${cmd.usage}`);
      return 2;
    }
    if (err instanceof MissingPeerError) {
      console.error(`dealkit ${name}: ${err.message}`);
      return 2;
    }
    throw err;
  }
}
