/** The CLI as a clone runs it (tsx on the sources): the command list holds commands, not their tests. */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/dealkit.js", import.meta.url));
const dealkit = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });

describe("dealkit in a clone", () => {
  it.each([
    ["--help", ["--help"], 0],
    ["no command", [], 2],
    ["a typo", ["conformence"], 2],
  ])("%s lists the commands and no test file", (_what, args, status) => {
    const r = dealkit(...args);
    expect(r.status, r.stderr).toBe(status);
    const text = r.stdout + r.stderr;
    expect(text).toMatch(/^ {2}conformance +check an implementation/m);
    expect(text).not.toMatch(/\.test\b|vitest/);
  });
});
