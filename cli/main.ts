import { InputError } from "../src/errors/input-error.ts";
import { MissingPeerError } from "../src/peers/optional-peer.ts";
import { UsageError } from "./args.ts";
import { COMMANDS, commandEntry } from "./commands.ts";

/**
 * The dealkit CLI: `dealkit <command> [options]`. The commands are listed in ./commands.ts; each
 * is one module in ./commands/ exporting `usage` and `run(args) => exit code`. The CLI stands
 * above the library, the suite, the server and the mock, and wires them: the work lives there.
 */
function help(): string {
  const lines = ["usage: dealkit <command> [options]", "", "commands:"];
  for (const [name, { summary }] of Object.entries(COMMANDS)) lines.push(`  ${name.padEnd(12)} ${summary}`);
  lines.push("", "dealkit <command> --help shows the options of one command.");
  return lines.join("\n");
}

/** Runs the CLI; returns the process exit code (0 ok, 1 failed check, 2 usage or unreachable input). */
export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(help());
    return name ? 0 : 2;
  }
  const entry = commandEntry(name);
  if (!entry) {
    console.error(`dealkit: unknown command ${JSON.stringify(name)}\n\n${help()}`);
    return 2;
  }
  const cmd = await entry.load();
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
    // Input that is not what it claims (a spec, report, ledger, HAR or list): refused, never judged.
    if (err instanceof MissingPeerError || err instanceof InputError) {
      console.error(`dealkit ${name}: ${err.message}`);
      return 2;
    }
    throw err;
  }
}
