import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DEMO_ACCOUNT } from "../../mocks/auth.ts";
import { type RunningMock, startMock } from "../../mocks/start.ts";
import { main } from "../main.ts";

// The goal of the mock's rule layer: `dealkit conformance --base-url <mock>` passes.
describe("dealkit conformance against the mock", () => {
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

  it("fails no check, with a fixed seed and without waiting out the 429 burst", async () => {
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
      checks: { name: string; status: string; reason?: string }[];
    };
    const failed = result.checks.filter((c) => c.status === "fail").map((c) => c.name);
    expect(failed).toEqual([]);
    // The fixture set is made for this: every rule and relation finds data to judge (full
    // streams, several pages, priced items, entries in the short rank windows).
    const unexercised = result.checks.filter((c) => c.status === "not-exercised");
    expect(unexercised.map((c) => `${c.name}: ${c.reason}`)).toEqual([]);
    expect(result.checks.length).toBeGreaterThan(40);
    expect(code).toBe(0);
  }, 180_000);
});
