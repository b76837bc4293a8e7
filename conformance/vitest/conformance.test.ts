/**
 * The suite as a vitest suite, for teams that already run vitest in CI:
 *
 *   DEALKIT_BASE_URL=https://api.example.com npx vitest run conformance/vitest
 *
 * One test per check. Vitest itself sets BASE_URL to Vite's "/" in every worker, so the target
 * is read from DEALKIT_BASE_URL (BASE_URL only when it is an http URL). Without a target it is
 * skipped (npm test checks the bundled server in conformance/self.test.ts). SEED, SKIP_SLOW=1,
 * BUDGET, MAX_TIME, DEALKIT_UID and DEALKIT_API_KEY tune it; a check without evidence is skipped
 * with its reason, or fails with REQUIRE_EVIDENCE=1.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { defaultRegistry } from "../registry.ts";
import type { RunReport } from "../runner/report.ts";
import { runConformance } from "../runner/run.ts";

const baseUrl = [process.env.DEALKIT_BASE_URL, process.env.BASE_URL].find((u) => u && /^https?:\/\//.test(u));
const seed = Number(process.env.SEED ?? 1);
const checks = defaultRegistry(await loadSpec()).all();

describe.skipIf(!baseUrl)(`conformance of ${baseUrl ?? "(BASE_URL unset)"} (seed ${seed})`, () => {
  let report: RunReport;

  beforeAll(async () => {
    const uid = process.env.DEALKIT_UID;
    const key = process.env.DEALKIT_API_KEY;
    report = await runConformance({
      baseUrl: baseUrl as string,
      seed,
      skipSlow: process.env.SKIP_SLOW === "1",
      ...(process.env.BUDGET ? { budget: Number(process.env.BUDGET) } : {}),
      ...(process.env.MAX_TIME ? { maxTimeSeconds: Number(process.env.MAX_TIME) } : {}),
      ...(uid && key ? { account: { uid, key } } : {}),
    });
  }, 600_000);

  it.for(checks.map((c) => c.name))("%s", (name, test) => {
    const result = report.checks.find((c) => c.name === name);
    if (report.error) throw new Error(report.error);
    if (result?.status === "not-exercised") {
      if (process.env.REQUIRE_EVIDENCE === "1") throw new Error(`not exercised: ${result.reason}`);
      test.skip(`not exercised: ${result.reason}`);
    }
    const lines = (result?.violations ?? []).map(
      (v) =>
        `${v.title}\n  Received: ${JSON.stringify(v.received)}\n  Documented: ${JSON.stringify(v.documented)}\n  ${v.request}\n  Replay: ${v.replay}`,
    );
    expect(lines, lines.join("\n\n")).toEqual([]);
  });
});
