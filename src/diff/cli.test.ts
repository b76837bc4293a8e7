import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stringify } from "yaml";
import { run } from "../cli/commands/diff.ts";
import { SPEC_PATH } from "../spec/paths.ts";
import { param, spec } from "./testing.ts";

const dir = mkdtempSync(join(tmpdir(), "dealkit-diff-"));
const write = (name: string, edit: (d: ReturnType<typeof spec>) => void) => {
  const d = spec();
  edit(d);
  const path = join(dir, name);
  writeFileSync(path, stringify(d));
  return path;
};
const narrowed = write("narrowed.yaml", (d) => {
  param(d, "RankLimit").schema.maximum = 200;
});
const defaulted = write("defaulted.yaml", (d) => {
  param(d, "RankLimit").schema.default = 30;
});

/** Runs `dealkit diff` in-process; returns the exit code and what it printed. */
async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, "log").mockImplementation((s: string) => out.push(s));
  vi.spyOn(console, "error").mockImplementation((s: string) => err.push(s));
  const code = await run(args);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

afterEach(() => vi.restoreAllMocks());

describe("dealkit diff", () => {
  it.each([
    ["breaking change, default fail-on", [SPEC_PATH, narrowed], 1],
    ["breaking change, --fail-on never", [SPEC_PATH, narrowed, "--fail-on", "never"], 0],
    ["warning, default fail-on", [SPEC_PATH, defaulted], 0],
    ["warning, --fail-on warning", [SPEC_PATH, defaulted, "--fail-on", "warning"], 1],
    ["no change, from git", ["git:HEAD:openapi/openapi.yaml", "git:HEAD:openapi/openapi.yaml"], 0],
    ["unreadable input", [SPEC_PATH, join(dir, "missing.yaml")], 2],
    ["unknown revision", ["git:no-such-rev:openapi/openapi.yaml", SPEC_PATH], 2],
  ])("%s → exit %i", async (_, args, want) => {
    expect((await cli(...(args as string[]))).code).toBe(want);
  });

  it("refuses a broken $ref as unreadable input", async () => {
    const broken = write("broken.yaml", (d) => {
      d.paths["/api/v1/rank"].get.parameters[0] = { $ref: "#/components/parameters/Nope" };
    });
    const { code, err } = await cli(SPEC_PATH, broken);
    expect(code).toBe(2);
    expect(err).toMatch(/cannot resolve \$refs/);
  });

  it("prints the chosen format", async () => {
    const { out } = await cli(SPEC_PATH, narrowed, "--format", "github");
    expect(out).toMatch(
      new RegExp(
        `^::error file=${narrowed.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")},line=\\d+,title=request-bound-narrowed::`,
      ),
    );
  });

  it("rejects a bad option as a usage error", async () => {
    await expect(run([SPEC_PATH, narrowed, "--format", "xml"])).rejects.toThrow(/--format must be one of/);
    await expect(run([SPEC_PATH])).rejects.toThrow(/exactly two inputs/);
  });
});
