/**
 * The CLI as a clone runs it: `npx dealkit` is bin/dealkit.js in a real process (tsx loading the
 * TypeScript), not main() called inside vitest. A test file once sat among the commands and every
 * one of these crashed with a vitest error; the command list in ./commands.ts is written out so
 * none can again, and it names exactly the modules in ./commands/.
 */
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { COMMANDS, commandEntry } from "./commands.ts";

const BIN = fileURLToPath(new URL("../bin/dealkit.js", import.meta.url));
const ROOT = fileURLToPath(new URL("../", import.meta.url));

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node bin/dealkit.js ARGS` from the clone's root, with vitest's own variables removed. */
function dealkit(args: string[]): Promise<Ran> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST") && k !== "NODE_OPTIONS"),
  );
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

/** The command lines `dealkit --help` lists, one per command, each with its summary. */
const LISTED = Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(12)} ${summary}`);

describe("bin/dealkit.js in a clone", () => {
  it.each([
    ["--help", ["--help"], { code: 0, stream: "stdout" }],
    ["no command", [], { code: 2, stream: "stdout" }],
    ["an unknown command", ["conformence"], { code: 2, stream: "stderr" }],
  ] as const)(
    "%s: lists every command, with its exit code",
    async (_name, args, want) => {
      const ran = await dealkit([...args]);
      expect(ran.code, ran.stderr).toBe(want.code);
      const shown = ran[want.stream];
      expect(shown).toContain("usage: dealkit <command> [options]");
      for (const line of LISTED) expect(shown).toContain(line);
      expect(`${ran.stdout}${ran.stderr}`).not.toMatch(/vitest|Error:|\n\s+at /i);
      if (want.stream === "stderr") {
        expect(ran.stderr.split("\n")[0]).toBe(
          'dealkit: unknown command "conformence" (did you mean conformance?)',
        );
        expect(ran.stdout).toBe("");
      } else expect(ran.stderr).toBe("");
    },
    90_000,
  );

  it("shows one command's usage with <command> --help", async () => {
    const ran = await dealkit(["release", "--help"]);
    expect(ran).toMatchObject({ code: 0, stderr: "" });
    expect(ran.stdout).toMatch(/^usage: dealkit release /);
  }, 90_000);
});

describe("the command list", () => {
  it("names exactly the command modules in cli/commands/ (tests and helpers there are none)", () => {
    const modules = readdirSync(new URL("./commands/", import.meta.url))
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
      .map((f) => f.slice(0, -".ts".length))
      .sort();
    expect(Object.keys(COMMANDS).sort()).toEqual(modules);
  });

  it("loads every command as a module with usage and run", async () => {
    for (const [name, entry] of Object.entries(COMMANDS)) {
      const cmd = await entry.load();
      expect(cmd.usage, name).toMatch(new RegExp(`^usage: dealkit ${name}\\b`));
      expect(typeof cmd.run, name).toBe("function");
    }
  });

  it("knows no command by a name every object inherits", () => {
    expect(commandEntry("toString")).toBeUndefined();
    expect(commandEntry("constructor")).toBeUndefined();
  });
});
