// Tests that need a program no machine has: skipped with a warning, or failing in CI.
import { describe, expect, it } from "vitest";
import { requireTool } from "../required-tool.ts";

const runs = requireTool({
  name: "no-such-program",
  available: false,
  install: "apt-get install -y no-such-program",
  needs: "the fixture's tests",
});

describe.runIf(runs)("needs no-such-program", () => {
  it("would run", () => {
    expect(runs).toBe(true);
  });
});
