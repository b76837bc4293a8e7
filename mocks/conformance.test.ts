import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DEMO_ACCOUNT } from "./auth.ts";
import { type RunningMock, startMock } from "./start.ts";

// The goal of the rule layer: `dealkit conformance --base-url <mock>` passes. The suite is
// built alongside the mock; until its command exists this file skips, and says so.
const COMMAND = new URL("../src/cli/commands/conformance.ts", import.meta.url);
const present = existsSync(COMMAND);
if (!present) console.warn(`skipping the conformance run against the mock: ${COMMAND.pathname} is absent`);

describe.skipIf(!present)("dealkit conformance against the mock", () => {
  let mock: RunningMock;
  let dir: string;

  beforeAll(async () => {
    // The real clock: the suite judges rank windows against its own time.
    mock = await startMock({ port: 0 });
    dir = await mkdtemp(join(tmpdir(), "dealkit-mock-conformance-"));
  });
  afterAll(async () => {
    await mock?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("passes every check, with a fixed seed and without waiting out the 429 burst", async () => {
    const { main } = await import("../src/cli/main.ts");
    const report = join(dir, "report.json");
    const args = [
      "conformance",
      "--base-url",
      mock.url,
      "--seed",
      "7",
      "--skip-slow",
      "--report",
      `json=${report}`,
    ];
    args.push("--uid", String(DEFAULT_DEMO_ACCOUNT.uid), "--api-key", DEFAULT_DEMO_ACCOUNT.apiKey);
    const code = await main(args);
    const result = JSON.parse(await readFile(report, "utf8")) as {
      checks: { name: string; status: string }[];
    };
    const notPassed = result.checks.filter((c) => c.status !== "pass").map((c) => `${c.name}: ${c.status}`);
    expect(notPassed).toEqual([]);
    expect(result.checks.length).toBeGreaterThan(40);
    expect(code).toBe(0);
  }, 180_000);
});
