/**
 * A test needing a missing program: skipped with a warning on a developer's machine, a failing
 * test in CI. The fixture is run by a vitest of its own, as CI would run it.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { toolsRequired } from "./required-tool.ts";

const require = createRequire(import.meta.url);
const FIXTURE = fileURLToPath(new URL("./required-tool-fixture/", import.meta.url));

describe("toolsRequired: in CI a missing program fails instead of skipping", () => {
  it.each([
    ["CI=true", { CI: "true" }, true],
    ["CI=1", { CI: "1" }, true],
    ["CI=TRUE", { CI: "TRUE" }, true],
    ["CI=false", { CI: "false" }, false],
    ["CI=0", { CI: "0" }, false],
    ["CI empty", { CI: "" }, false],
    ["CI unset", {}, false],
  ])("%s", (_name, env, want) => {
    expect(toolsRequired(env as NodeJS.ProcessEnv)).toBe(want);
  });
});

/** The fixture under a vitest of its own, with CI as given; its exit code and output. */
function runFixture(ci: string | undefined): Promise<{ code: number; out: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k !== "CI" && !k.startsWith("VITEST")),
  );
  if (ci !== undefined) env.CI = ci;
  const vitest = join(dirname(require.resolve("vitest/package.json")), "vitest.mjs");
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [vitest, "run", "--root", FIXTURE, "--reporter=verbose", "--no-color"],
      { env, timeout: 120_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

describe("requireTool, as a run sees it", () => {
  it("in CI: one failing test that names the program and how to install it", async () => {
    const { code, out } = await runFixture("true");
    expect(code).toBe(1);
    expect(out).toMatch(/no-such-program \(required in CI\).*is installed, for the fixture's tests/);
    expect(out).toContain("CI is set and no-such-program is missing (apt-get install -y no-such-program)");
  }, 120_000);

  it("elsewhere: skipped, with one warning line", async () => {
    const { code, out } = await runFixture(undefined);
    expect(code).toBe(0);
    expect(out).toContain(
      "SKIPPED the fixture's tests: no no-such-program (apt-get install -y no-such-program)",
    );
    expect(out).not.toMatch(/required in CI/);
  }, 120_000);
});
