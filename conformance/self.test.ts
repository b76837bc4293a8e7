/**
 * The suite passes on the reference server: zero violations, no 429 outside the burst, nothing
 * skipped. One full run (the Retry-After wait included: the server's window is shortened to 10 s
 * through its options, while pacing still follows the advertised 60 per 60 s), then another
 * seeds without the wait.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance } from "./runner/run.ts";
import { startBundledServer, type Target } from "./runner/target.ts";

let server: Target;

beforeAll(async () => {
  server = await startBundledServer({ rateLimit: { windowSeconds: 10 } });
});

afterAll(async () => {
  await server?.close();
});

const violations = (report: Awaited<ReturnType<typeof runConformance>>) =>
  report.checks.flatMap((c) => c.violations.map((v) => `${v.check}: ${v.title} ${v.request}`));

describe("the reference server conforms", () => {
  it("full run, seed 1: every check passes, none skipped, no unexpected 429", async () => {
    const report = await runConformance({
      baseUrl: server.baseUrl,
      seed: 1,
      ...(server.account ? { account: server.account } : {}),
    });
    expect(violations(report)).toEqual([]);
    expect(report.checks.filter((c) => c.status !== "pass").map((c) => `${c.name}: ${c.note}`)).toEqual([]);
    expect(report.unexpected429).toBe(0);
  }, 120_000);

  it.each([2, 3])(
    "seed %i (--skip-slow): zero violations",
    async (seed) => {
      const report = await runConformance({
        baseUrl: server.baseUrl,
        seed,
        skipSlow: true,
        randomRuns: 15,
        skip: ["rate-limit"],
        ...(server.account ? { account: server.account } : {}),
      });
      expect(violations(report)).toEqual([]);
      expect(report.unexpected429).toBe(0);
    },
    120_000,
  );
});
